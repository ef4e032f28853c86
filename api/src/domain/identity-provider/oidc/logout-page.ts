// The pages the provider shows in the browser: in Spanish, in the portal's colours, never the library's. An app's logout
// (RP-initiated logout) asks the person; with a valid id_token_hint of the signed-in person the app's word is enough:
// the form is sent at once. The library's self-submitting form (a logout with nobody signed in, the form_post response
// mode) becomes the portal's own page with the same form.
import { createHash } from 'node:crypto';
import type Provider from 'oidc-provider';
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

const page = (title: string, body: string) => `<!DOCTYPE html>
<html lang="es">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <style>${style}</style>
</head>
<body>
  ${body}
</body>
</html>`;

const policy = (script: boolean) =>
  [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src ${script ? scriptHash : "'none'"}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');

/**
 * The action and the hidden fields of the library's self-submitting form page (response_modes/form_post.js), known by
 * its title; undefined for any other answer. Its values are already escaped for an attribute, and kept as they are.
 */
export function libraryFormPost(html: string): { action: string; fields: [string, string][] } | undefined {
  if (!html.includes('<title>Submitting Callback</title>')) return undefined;
  const action = /<form method="post" action="([^"]*)">/.exec(html)?.[1];
  if (action === undefined) return undefined;
  const fields = [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/>/g)].map(
    ([, name, value]) => [name, value] as [string, string],
  );
  return { action, fields };
}

/**
 * The portal's page for a form the browser must post on its own: `logout` for the end of a session with nobody (or
 * somebody else) signed in, else an answer carried to an app. Sent at once by a script allowed by its hash; without
 * JavaScript, a Spanish button.
 */
export function formPostPage(
  form: { action: string; fields: [string, string][] },
  logout: boolean,
): { html: string; contentSecurityPolicy: string } {
  const inputs = form.fields
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}"/>`)
    .join('\n      ');
  const [title, heading, button] = logout
    ? ['Cerrar sesión', 'Cerrando sesión...', 'Cerrar sesión']
    : ['Volviendo a la aplicación', 'Volviendo a la aplicación...', 'Continuar'];
  const body = `<form id="op.logoutForm" method="post" action="${form.action}">
      ${inputs}
    </form>
    <main><h1>${heading}</h1><noscript><p>Pulsa el botón para continuar.</p>
      <button class="primary" type="submit" form="op.logoutForm">${button}</button></noscript></main>
    <script>${submitScript}</script>`;
  return { html: page(title, body), contentSecurityPolicy: policy(true) };
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
  return { html: page('Cerrar sesión', body), contentSecurityPolicy: policy(automatic) };
}

/**
 * The library's self-submitting form (a logout with nobody signed in, a sign-in as somebody else ending the previous
 * provider session, the form_post response mode) is an English page of its own: the portal's page replaces it.
 */
export function portalFormPostPages(provider: Provider): void {
  provider.use(async (ctx, next) => {
    await next();
    if (typeof ctx.body !== 'string' || !ctx.response.is('html')) return;
    const form = libraryFormPost(ctx.body);
    if (!form) return;
    const logout = form.fields.some(([name]) => name === 'logout');
    const page = formPostPage(form, logout);
    ctx.set('content-security-policy', page.contentSecurityPolicy);
    ctx.body = page.html;
  });
}
