// The single-page app's code, run in the browser (bundled by ../spa.ts): the guide's example
// (docs/ejemplos-oidc/spa.ts, oidc-client-ts's UserManager with the authorization code flow and PKCE, the response in
// the query) as the apps' teams read it, plus what this test app shows: the person from the ID token, a userinfo call
// at each start to learn whether the portal still honours the session, and RP-initiated logout.
import type { User } from 'oidc-client-ts';
import { alVolver, entrar, portal } from '../../../../docs/ejemplos-oidc/spa';

interface SpaConfig {
  title: string;
  authority: string;
  clientId: string;
  scope: string;
}

const config = JSON.parse(document.getElementById('config')?.textContent ?? '{}') as SpaConfig;
const manager = portal(config.authority, config.clientId, window.location.origin);

function element(tag: string, text: string): HTMLElement {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

function button(text: string, onClick: () => Promise<void>): HTMLButtonElement {
  const node = element('button', text) as HTMLButtonElement;
  node.type = 'button';
  node.addEventListener('click', () => {
    node.disabled = true;
    onClick().catch((error: unknown) => render(null, `Error: ${(error as Error).message}`));
  });
  return node;
}

function render(user: User | null, notice?: string) {
  const main = document.querySelector('main') as HTMLElement;
  const parts: HTMLElement[] = [element('h1', config.title)];
  if (notice) parts.push(element('p', notice));
  if (user) {
    const plan = user.profile.plan as { nombre?: string } | null | undefined;
    parts.push(
      element('p', `Sesión: ${user.profile.email ?? ''}`),
      element('p', `Nombre: ${user.profile.name ?? ''}`),
      element('p', `Plan: ${plan === undefined ? 'sin dato de plan' : (plan?.nombre ?? 'sin plan')}`),
      // oidc-client-ts sends a state (and checks it on the way back) only when it has data to carry.
      button('Salir', () => manager.signoutRedirect({ state: 'salida' })),
    );
  } else {
    parts.push(
      element('p', 'Sin sesión'),
      button('Entrar con el portal', () => entrar(manager)),
    );
  }
  main.replaceChildren(...parts);
  // The page has settled: what it shows is what the app knows.
  main.dataset.ready = 'true';
}

/** The portal still honours the access token: its userinfo answers. */
async function honoured(user: User): Promise<boolean> {
  const response = await fetch(await manager.metadataService.getUserInfoEndpoint(), {
    headers: { authorization: `Bearer ${user.access_token}` },
  });
  return response.ok;
}

async function start() {
  const address = new URL(window.location.href);
  let notice: string | undefined;
  if (address.pathname === '/callback') {
    await alVolver(manager);
    window.history.replaceState(null, '', '/');
  } else if (address.searchParams.has('state')) {
    await manager.signoutCallback();
    window.history.replaceState(null, '', '/');
    notice = 'Saliste de la app y del portal';
  }
  const user = await manager.getUser();
  if (user && !user.expired && (await honoured(user))) return render(user, notice);
  if (user) {
    await manager.removeUser();
    notice = 'El portal cerró la sesión';
  }
  render(null, notice);
}

start().catch((error: unknown) => render(null, `Error: ${(error as Error).message}`));
