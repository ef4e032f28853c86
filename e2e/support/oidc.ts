// Fixtures of the OpenID Connect spec (tests/oidc-provider.spec.ts): three relying parties this project did not write
// the protocol of, each on its own port, registered as clients through the admin API for the whole worker, on top of
// the sign-in specs' fixtures (the SMTP sink).
import { API_URL, E2E, SERVER_APP_URL, SPA_URL, THIRD_PARTY_APP_URL } from './env';
import { test as authTest } from './auth';
import { type ServerApp, serverAppUris, startServerApp } from './relying-parties/server-app';
import { spaUris, startSpa } from './relying-parties/spa';

/** The clients' names, as the portal shows them ('Inicia sesión para continuar a …', the consent screen, /perfil). */
export const SPA_NAME = 'Control Max 360 (web)';
export const SERVER_APP_NAME = 'Beto Pro (servidor)';
export const THIRD_PARTY_NAME = 'Socio Analítica';

/**
 * Where the portal's launcher opens the server app (its initiate-login URI). OpenID Connect wants https there, even on
 * loopback, and the app listens on http: a test that launches it routes this public address to the app's own
 * `/iniciar` (`serverAppUris`), as the app's https front would.
 */
export const SERVER_APP_LAUNCH_URI = 'https://beto-servidor.example.com/iniciar';

export interface RelyingParties {
  spa: { url: string; clientId: string };
  serverApp: ServerApp & { clientId: string };
  thirdParty: ServerApp & { clientId: string };
}

export async function adminToken(): Promise<string> {
  const response = await fetch(`${API_URL}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: E2E.adminEmail, password: E2E.adminPassword }),
  });
  if (!response.ok) throw new Error(`admin login failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Registers a client as an administrator does in the panel: POST /admin/clientes-oidc. */
async function registerClient(
  token: string,
  body: Record<string, unknown>,
): Promise<{ clientId: string; clientSecret?: string }> {
  const response = await fetch(`${API_URL}/admin/clientes-oidc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (response.status !== 201)
    throw new Error(`client registration failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { clientId: string; clientSecret?: string };
}

async function deleteClient(token: string, clientId: string): Promise<void> {
  await fetch(`${API_URL}/admin/clientes-oidc/${encodeURIComponent(clientId)}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
}

export const test = authTest.extend<object, { relyingParties: RelyingParties }>({
  relyingParties: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; it has none.
    async ({}, use) => {
      const admin = await adminToken();
      const spaAddresses = spaUris(SPA_URL);
      const spaClient = await registerClient(admin, {
        nombre: SPA_NAME,
        redirectUris: [spaAddresses.redirectUri],
        postLogoutRedirectUris: [spaAddresses.postLogoutRedirectUri],
        publico: true,
        primeraParte: true,
        appId: 1,
        scopes: ['openid', 'profile', 'email', 'plan'],
      });
      const serverAddresses = serverAppUris(SERVER_APP_URL);
      const serverClient = await registerClient(admin, {
        nombre: SERVER_APP_NAME,
        redirectUris: [serverAddresses.redirectUri],
        backchannelLogoutUri: serverAddresses.backchannelLogoutUri,
        // Beto Pro in /apps opens the app's own sign-in (third-party-initiated login) instead of a partner token.
        initiateLoginUri: SERVER_APP_LAUNCH_URI,
        primeraParte: true,
        appId: 2,
        scopes: ['openid', 'profile', 'email', 'plan', 'offline_access'],
      });
      const thirdAddresses = serverAppUris(THIRD_PARTY_APP_URL);
      const thirdClient = await registerClient(admin, {
        nombre: THIRD_PARTY_NAME,
        redirectUris: [thirdAddresses.redirectUri],
        backchannelLogoutUri: thirdAddresses.backchannelLogoutUri,
        primeraParte: false,
        scopes: ['openid', 'profile', 'email'],
      });

      const spa = await startSpa({
        port: E2E.spaPort,
        title: SPA_NAME,
        issuer: API_URL,
        clientId: spaClient.clientId,
        scope: 'openid profile email plan',
      });
      const serverApp = await startServerApp({
        port: E2E.serverAppPort,
        title: SERVER_APP_NAME,
        issuer: API_URL,
        clientId: serverClient.clientId,
        clientSecret: serverClient.clientSecret ?? '',
        scopes: ['openid', 'profile', 'email', 'plan', 'offline_access'],
      });
      const thirdParty = await startServerApp({
        port: E2E.thirdPartyAppPort,
        title: THIRD_PARTY_NAME,
        issuer: API_URL,
        clientId: thirdClient.clientId,
        clientSecret: thirdClient.clientSecret ?? '',
        scopes: ['openid', 'profile', 'email'],
      });
      await use({
        spa: { url: spa.url, clientId: spaClient.clientId },
        serverApp: Object.assign(serverApp, { clientId: serverClient.clientId }),
        thirdParty: Object.assign(thirdParty, { clientId: thirdClient.clientId }),
      });
      await Promise.all([spa.close(), serverApp.close(), thirdParty.close()]);
      const cleanup = await adminToken();
      for (const client of [spaClient, serverClient, thirdClient]) await deleteClient(cleanup, client.clientId);
    },
    { scope: 'worker' },
  ],
});

export { expect } from './auth';
