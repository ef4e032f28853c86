// The page an app's logout (RP-initiated logout) shows in the browser: in Spanish, in the portal's colours, never the
// library's. With a valid id_token_hint of the signed-in person the app's word is enough: the form is sent at once.
import { createHash } from 'node:crypto';
import type { Client, KoaContextWithOIDC } from 'oidc-provider';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const style = `
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f1f5f9; color: #0f172a;
    font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif; }
  main { background: #fff; border-radius: 10px; padding: 2rem; max-width: 26rem; margin: 1rem;
    box-shadow: 0 1px 3px rgba(15, 23, 42, 0.12), 0 4px 12px rgba(15, 23, 42, 0.06); }
  h1 { font-size: 1.4rem; margin: 0 0 0.75rem; }
  p { color: #475569; line-height: 1.5; }
  .actions { display: flex; gap: 0.75rem; flex-wrap: wrap; margin-top: 1.5rem; }
  button { font: inherit; border-radius: 10px; padding: 0.65rem 1.2rem; cursor: pointer; border: 1px solid #cbd5e1;
    background: #fff; color: #0f172a; }
  button.primary { background: #1d4ed8; border-color: #1d4ed8; color: #fff; }
  button:focus-visible { outline: 3px solid #1e40af; outline-offset: 2px; }`;

const submitScript = "document.getElementById('op.logoutForm').submit();";
const scriptHash = `'sha256-${createHash('sha256').update(submitScript).digest('base64')}'`;

/**
 * True when the logout carries an ID token (already validated by the provider, its audience the client) of the person
 * signed in here: its `sub` is the one that client knows them by (`subjectOf`, the client's subject of the session's
 * account).
 */
async function hintedBySignedInPerson(
  ctx: KoaContextWithOIDC,
  subjectOf: (client: Client, accountId: string) => Promise<string | undefined>,
): Promise<boolean> {
  const hint = ctx.oidc.entities.IdTokenHint as { payload?: { sub?: unknown } } | undefined;
  const { client, session } = ctx.oidc;
  if (typeof hint?.payload?.sub !== 'string' || !client || !session?.accountId) return false;
  return hint.payload.sub === (await subjectOf(client, session.accountId));
}

export async function logoutPage(
  ctx: KoaContextWithOIDC,
  form: string,
  subjectOf: (client: Client, accountId: string) => Promise<string | undefined>,
): Promise<{ html: string; contentSecurityPolicy: string }> {
  const app = ctx.oidc.client?.clientName ? escapeHtml(String(ctx.oidc.client.clientName)) : 'Una aplicación';
  const automatic = await hintedBySignedInPerson(ctx, subjectOf);
  // The library's form holds the action and its anti-forgery value; the buttons submit it, with or without `logout`.
  const body = automatic
    ? `${form.replace('</form>', '<input type="hidden" name="logout" value="yes"/></form>')}
    <main><h1>Cerrando sesión...</h1><noscript><p>Pulsa el botón para terminar.</p>
      <button class="primary" type="submit" form="op.logoutForm">Cerrar sesión</button></noscript></main>
    <script>${submitScript}</script>`
    : `${form}
    <main aria-labelledby="titulo">
      <h1 id="titulo">¿Cerrar sesión?</h1>
      <p>${app} cerró tu sesión y pregunta si también quieres cerrar tu sesión del portal en este navegador.</p>
      <p>Si la cierras, también se cerrará en las demás aplicaciones que abriste con tu cuenta.</p>
      <div class="actions">
        <button class="primary" type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Cerrar sesión</button>
        <button type="submit" form="op.logoutForm">Cancelar</button>
      </div>
    </main>`;
  return {
    html: `<!DOCTYPE html>
<html lang="es">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Cerrar sesión</title>
  <style>${style}</style>
</head>
<body>
  ${body}
</body>
</html>`,
    contentSecurityPolicy: [
      "default-src 'none'",
      "style-src 'unsafe-inline'",
      `script-src ${automatic ? scriptHash : "'none'"}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
  };
}
