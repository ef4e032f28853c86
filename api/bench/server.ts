// The server side of auth.bench.ts and oidc.bench.ts, in a process of its own so the load generator does not share
// its event loop: the whole API and, beside it in the same process, a bare Fastify route as the floor to compare
// against. The API listens on a port chosen first, so its public address (the OpenID Connect issuer) is its own.
import { createServer } from 'node:net';
import Fastify from 'fastify';
import { startBenchApi } from './bench-api.js';

const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address() as { port: number };
    probe.close(() => resolve(free));
  });
});
const issuer = `http://127.0.0.1:${port}`;
const { app: api, dispose } = await startBenchApi({ PORT: String(port), API_PUBLIC_URL: issuer, OIDC_ISSUER: issuer });
const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ ok: true }));

const apiAddress = await api.listen({ host: '127.0.0.1', port });
const bareAddress = await bare.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ api: apiAddress, bare: bareAddress })}\n`);

process.once('SIGTERM', async () => {
  await Promise.all([dispose(), bare.close()]);
  process.exit(0);
});
