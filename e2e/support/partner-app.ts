// A tiny partner web app on its own origin: it shows the token it receives, as a real partner would read it.
import http from 'node:http';

export async function startPartnerApp(port: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const token = new URL(req.url ?? '/', `http://127.0.0.1:${port}`).searchParams.get('token');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="es"><head><title>App asociada</title></head><body><h1>App asociada</h1>` +
        `<p id="token">${token ? token.replace(/[^A-Za-z0-9._-]/g, '') : 'sin token'}</p></body></html>`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
