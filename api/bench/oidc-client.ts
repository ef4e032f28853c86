// The benchmarks' OpenID Connect client (a confidential first-party app of app 1, with offline_access) and the codes
// and tokens it gets, for the benches that measure the provider (oidc.bench.ts, side-by-side.ts).
import type { TestBrowser } from '../test/helpers/oidc.js';

const redirect = 'https://bench.example.com/callback';

export interface BenchClient {
  clientId: string;
  /** The headers of a form posted with the client's secret (client_secret_basic). */
  form: Record<string, string>;
  /**
   * A code with its PKCE verifier, made by `browser` (signed in to the portal); its tokens bound to the provider
   * session when not `offline` (a single-page app's kind).
   */
  newCode(browser: TestBrowser, offline?: boolean): Promise<{ code: string; verifier: string }>;
  redeem(code: { code: string; verifier: string }): Promise<{ access_token: string; refresh_token: string }>;
}

/** Registers the client 'Benchmark' through `api` as the administrator whose portal token is `adminToken`. */
export async function createBenchClient(api: string, adminToken: string): Promise<BenchClient> {
  const creation = await fetch(`${api}/admin/clientes-oidc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({
      nombre: 'Benchmark',
      redirectUris: [redirect],
      primeraParte: true,
      appId: 1,
      scopes: ['openid', 'profile', 'email', 'plan', 'offline_access'],
    }),
  });
  if (creation.status !== 201) throw new Error(`client: ${creation.status} ${await creation.text()}`);
  const { clientId, clientSecret } = (await creation.json()) as { clientId: string; clientSecret: string };
  const form = {
    authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
    'content-type': 'application/x-www-form-urlencoded',
  };
  return {
    clientId,
    form,
    async newCode(browser, offline = true) {
      const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
      const challenge = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))).toString(
        'base64url',
      );
      const url = new URL(`${api}/oidc/auth`);
      for (const [name, value] of Object.entries({
        client_id: clientId,
        redirect_uri: redirect,
        response_type: 'code',
        scope: offline ? 'openid email plan offline_access' : 'openid email plan',
        ...(offline ? { prompt: 'consent' } : {}),
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }))
        url.searchParams.set(name, value);
      const landed = new URL(await browser.signInTo(url.href));
      const code = landed.searchParams.get('code');
      if (!code) throw new Error(`no code: ${landed.href}`);
      return { code, verifier };
    },
    async redeem({ code, verifier }) {
      const response = await fetch(`${api}/oidc/token`, {
        method: 'POST',
        headers: form,
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirect,
          code_verifier: verifier,
        }),
      });
      if (response.status !== 200) throw new Error(`token: ${response.status} ${await response.text()}`);
      return (await response.json()) as { access_token: string; refresh_token: string };
    },
  };
}
