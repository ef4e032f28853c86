// A real OpenID Connect identity provider (oidc-provider) on 127.0.0.1 standing in for Google or Apple in tests.
// Configured like the real ones where the portal can tell: Google answers to the callback with a GET and a client
// secret string; Apple answers with a form POST, wants the ES256 JWT client secret Apple requires (checked here
// against the test key), writes email_verified as a string and sends the name only on the first authorization. A
// company's provider (kind 'company') is like Entra ID: a GET answer, a client secret sent with HTTP Basic (or POST),
// and no email_verified claim unless the test account sets one.
import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { exportJWK, jwtVerify } from 'jose';
import Provider from 'oidc-provider';

export interface TestAccount {
  /** The subject: stays the same when the email at the provider changes. */
  sub: string;
  email: string;
  /** The company kind sends the claim only when this is set; the others always send it. */
  emailVerified?: boolean;
  givenName?: string;
  familyName?: string;
  /** Google's `picture` claim (the profile scope); Apple sends none. */
  picture?: string;
  /** How the provider says the person signed in: the ID token's `amr` (RFC 8176), e.g. ['pwd', 'mfa']. */
  amr?: string[];
}

export interface IdentityProviderOptions {
  kind: 'google' | 'apple' | 'company';
  port?: number;
  /**
   * The host name of its issuer (it listens on 127.0.0.1 either way): the browser suite names it as it names the API
   * (localhost), so Apple's form_post to the API is same-site and carries the API's Lax cookie over plain http.
   */
  host?: string;
  clientId: string;
  /** Google-like: the fixed secret. Apple-like: unused (the client signs a JWT instead). */
  clientSecret?: string;
  redirectUris: string[];
  /** Apple-like: the team and key the client secret must be signed by, and the private key's PEM (its public half checks). */
  apple?: { teamId: string; keyId: string; privateKeyPem: string };
}

export interface IdentityProvider {
  issuer: string;
  /** Adds or replaces a person the provider knows (by subject). */
  setAccount(account: TestAccount): void;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 64 * 1024) request.destroy(new Error('cuerpo demasiado grande'));
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(kind: string, uid: string, problem?: string): string {
  const brand =
    kind === 'google' ? 'Google de pruebas' : kind === 'apple' ? 'Apple de pruebas' : 'Acceso de empresa de pruebas';
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${brand}</title></head><body>
<h1>${brand}</h1>
${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}">
  <label>Cuenta <input name="account" autocomplete="off" autofocus></label>
  <button name="action" value="login">Continuar</button>
  <button name="action" value="cancel">Cancelar</button>
</form></body></html>`;
}

export async function startIdentityProvider(options: IdentityProviderOptions): Promise<IdentityProvider> {
  const accounts = new Map<string, TestAccount>();
  const namedOnce = new Set<string>();
  const server = http.createServer();
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://${options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  const apple = options.kind === 'apple';
  const company = options.kind === 'company';
  // Apple-like: the secret the client's JWT is swapped for once checked, so oidc-provider can compare strings.
  const registeredSecret = apple ? randomBytes(24).toString('hex') : options.clientSecret;
  if (!registeredSecret) throw new Error('clientSecret es obligatorio para los proveedores tipo Google y empresa');

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingJwk = { ...(await exportJWK(privateKey)), kid: 'idp-test', alg: 'RS256', use: 'sig' };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: registeredSecret,
        redirect_uris: options.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: company ? 'client_secret_basic' : 'client_secret_post',
      },
    ],
    jwks: { keys: [signingJwk] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    scopes: apple ? ['openid', 'email', 'name'] : ['openid', 'email', 'profile'],
    claims: apple
      ? { openid: ['sub'], email: ['email', 'email_verified'] }
      : {
          // `amr`: how the person signed in, when the test account says (Entra ID sends it in every ID token).
          openid: ['sub', 'amr'],
          email: ['email', 'email_verified'],
          profile: ['given_name', 'family_name', 'name', 'picture'],
        },
    // Like Google and Apple, the ID token itself carries the email.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            email: account.email,
            email_verified: apple
              ? String(account.emailVerified)
              : company && account.emailVerified === undefined
                ? undefined
                : account.emailVerified,
            given_name: account.givenName,
            family_name: account.familyName,
            name: [account.givenName, account.familyName].filter(Boolean).join(' ') || undefined,
            picture: apple ? undefined : account.picture,
          };
        },
      };
    },
  });

  if (apple) {
    // Apple posts `user` ({"name":{…},"email"}) with the first authorization of each person only.
    provider.on('authorization.success', (ctx, out) => {
      const sub = ctx.oidc.session?.accountId;
      const account = sub ? accounts.get(sub) : undefined;
      if (!out || !sub || !account || namedOnce.has(sub)) return;
      namedOnce.add(sub);
      out.user = JSON.stringify({
        name: { firstName: account.givenName, lastName: account.familyName },
        email: account.email,
      });
    });
  }

  const oidc = provider.callback();

  async function interaction(request: IncomingMessage, response: ServerResponse, uid: string) {
    const details = await provider.interactionDetails(request, response);
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(loginPage(options.kind, uid));
      return;
    }
    const form = new URLSearchParams(await readBody(request));
    if (form.get('action') === 'cancel') {
      await provider.interactionFinished(
        request,
        response,
        { error: 'access_denied', error_description: 'El usuario canceló' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const sub = form.get('account') ?? '';
    if (!accounts.has(sub)) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(loginPage(options.kind, uid, 'Cuenta desconocida'));
      return;
    }
    const grant = new provider.Grant({ accountId: sub, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: sub, amr: accounts.get(sub)?.amr }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  /** Apple-like token endpoint: the client secret must be Apple's JWT, signed by the configured team and key. */
  async function appleToken(request: IncomingMessage, response: ServerResponse) {
    const body = new URLSearchParams(await readBody(request));
    const keys = options.apple;
    try {
      if (!keys) throw new Error('sin clave de Apple configurada');
      const { protectedHeader } = await jwtVerify(
        body.get('client_secret') ?? '',
        createPublicKey(keys.privateKeyPem),
        {
          algorithms: ['ES256'],
          issuer: keys.teamId,
          subject: options.clientId,
          audience: issuer,
          requiredClaims: ['iat', 'exp'],
        },
      );
      if (protectedHeader.kid !== keys.keyId) throw new Error('kid distinto');
    } catch {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'invalid_client' }));
      return;
    }
    body.set('client_secret', registeredSecret as string);
    const forwarded = body.toString();
    // Handed to oidc-provider (on a second listener) as if the client had sent the registered secret.
    const inner = await innerServer();
    const proxied = http.request(
      {
        host: '127.0.0.1',
        port: inner,
        path: request.url,
        method: 'POST',
        headers: { ...request.headers, 'content-length': Buffer.byteLength(forwarded) },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 500, answer.headers);
        answer.pipe(response);
      },
    );
    proxied.end(forwarded);
  }

  let inner: Promise<number> | undefined;
  const innerServers: http.Server[] = [];
  function innerServer(): Promise<number> {
    inner ??= (async () => {
      const second = http.createServer(oidc);
      innerServers.push(second);
      second.listen(0, '127.0.0.1');
      await once(second, 'listening');
      return (second.address() as AddressInfo).port;
    })();
    return inner;
  }

  /** POST /__cuentas with a TestAccount as JSON: how a test process tells the provider who exists. */
  async function addAccount(request: IncomingMessage, response: ServerResponse) {
    const account = JSON.parse(await readBody(request)) as TestAccount;
    accounts.set(account.sub, account);
    response.writeHead(204);
    response.end();
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const { pathname } = new URL(request.url ?? '/', issuer);
    const uid = /^\/interaction\/([\w-]+)$/.exec(pathname)?.[1];
    const handled = uid
      ? interaction(request, response, uid)
      : request.method === 'POST' && pathname === '/__cuentas'
        ? addAccount(request, response)
        : apple && request.method === 'POST' && pathname === '/token'
          ? appleToken(request, response)
          : Promise.resolve(oidc(request, response));
    handled.catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`Error del proveedor de pruebas: ${(error as Error).message}`);
    });
  });

  return {
    issuer,
    setAccount(account) {
      accounts.set(account.sub, account);
    },
    async close() {
      server.closeAllConnections();
      for (const second of innerServers) second.closeAllConnections();
      await Promise.all([server, ...innerServers].map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}
