// A confidential server app that signs in with the portal as a partner would build one: @badgateway/oauth2-client for
// the code flow (PKCE, client_secret_basic, refresh), its own session in an httpOnly cookie, an initiate-login endpoint
// the portal's launcher opens (OpenID Connect Core §4), and a back-channel logout endpoint that verifies each logout
// token (./jwt.ts) before it ends the matching session.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { generateCodeVerifier, OAuth2Client, OAuth2Error, type OAuth2Token } from '@badgateway/oauth2-client';
import { IssuerKeys, TokenRejected, verifyIdToken, verifyLogoutToken } from './jwt';

export interface ServerAppOptions {
  port: number;
  /** The app's heading; the portal knows it by the client's own name. */
  title: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What a sign-in asks for; with offline_access, a second way in asks for it (and so for prompt=consent). */
  scopes: string[];
}

/** A logout token the app accepted, and how many of its sessions it ended. */
export interface ReceivedLogout {
  sub: unknown;
  sid: string;
  endedSessions: number;
}

export interface ServerApp {
  url: string;
  /** Every logout token that verified, in order. */
  logouts: ReceivedLogout[];
  /** The refresh token the app holds for a signed-in person, if any. */
  refreshTokenOf(email: string): string | null;
  /** The provider session (`sid`) of a signed-in person's app session. */
  sidOf(email: string): string | undefined;
  /** A refresh with a given token at the portal, as someone holding a copy of it would try. */
  refreshWith(refreshToken: string): Promise<OAuth2Token>;
  close(): Promise<void>;
}

/** The addresses an administrator registers for an app on this port. */
export function serverAppUris(url: string) {
  return {
    redirectUri: `${url}/callback`,
    backchannelLogoutUri: `${url}/backchannel-logout`,
    initiateLoginUri: `${url}/iniciar`,
  };
}

interface AppSession {
  email: string;
  sub: string;
  sid: string | undefined;
  plan: string;
  /** The companies the `organization` claim names, with the person's roles; undefined when the app did not ask. */
  organization: string | undefined;
  /** How the person signed in, as the ID token says: `acr` and `amr`. */
  acr: string;
  amr: string;
  token: OAuth2Token;
}

/** The notices the page shows after a redirect, by a fixed key: nothing from the address is echoed. */
const NOTICES: Record<string, string> = {
  renovado: 'Tokens renovados',
  'renovacion-rechazada': 'El portal rechazó la renovación: la sesión en la app terminó.',
  'respuesta-invalida': 'La respuesta del portal no es válida.',
};

/** An error code of the protocol (access_denied, invalid_grant…): the one word of an address the page shows. */
const PROTOCOL_ERROR = /^[a-z_]{1,40}$/;

/** What a sign-in with step-up asks: the portal's level 2, essential. */
const STEP_UP_ACR = 'urn:portal:acr:2';
const STEP_UP_CLAIMS = { id_token: { acr: { essential: true, values: [STEP_UP_ACR] } } };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function planText(plan: unknown): string {
  if (plan === undefined) return 'sin dato de plan';
  if (plan === null) return 'sin plan';
  return String((plan as { nombre?: unknown }).nombre);
}

/** Keycloak's organization claim, as the page shows it: 'Minera Andina S.A. (miembro)', or 'ninguna'. */
function organizationText(organization: unknown): string | undefined {
  if (organization === undefined) return undefined;
  const entries = Object.entries((organization ?? {}) as Record<string, { roles?: unknown }>);
  if (entries.length === 0) return 'ninguna';
  return entries
    .map(([name, { roles }]) => (Array.isArray(roles) && roles.length > 0 ? `${name} (${roles.join(', ')})` : name))
    .join('; ');
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return body;
}

function cookiesOf(request: http.IncomingMessage): Map<string, string> {
  const pairs = (request.headers.cookie ?? '').split(';').map((part) => part.trim().split('='));
  return new Map(pairs.filter((pair) => pair.length === 2) as [string, string][]);
}

export async function startServerApp(options: ServerAppOptions): Promise<ServerApp> {
  const url = `http://127.0.0.1:${options.port}`;
  const { redirectUri } = serverAppUris(url);
  // Cookies are per host, not per port: each app on 127.0.0.1 names its own.
  const sessionCookie = `sesion_app_${options.port}`;
  const loginCookie = `inicio_app_${options.port}`;
  const client = new OAuth2Client({
    server: `${options.issuer}/`,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    discoveryEndpoint: '/.well-known/openid-configuration',
    authenticationMethod: 'client_secret_basic',
  });
  const keys = new IssuerKeys(options.issuer);
  const sessions = new Map<string, AppSession>();
  /** Each sign-in under way, by its state: the PKCE verifier and the app's page to land on. */
  const pendingLogins = new Map<string, { codeVerifier: string; landing: string }>();
  const seenLogoutTokens = new Set<string>();
  const logouts: ReceivedLogout[] = [];

  const redirect = (response: http.ServerResponse, location: string, cookie?: string) => {
    response.writeHead(303, { location, 'cache-control': 'no-store', ...(cookie ? { 'set-cookie': cookie } : {}) });
    response.end();
  };

  function page(session: AppSession | undefined, notice: string | undefined): string {
    const canRefresh = Boolean(session?.token.refreshToken);
    const offline = options.scopes.includes('offline_access');
    const body = session
      ? `<p>Sesión en la app: ${escapeHtml(session.email)}</p><p>Plan: ${escapeHtml(session.plan)}</p>` +
        `<p>Nivel: ${escapeHtml(session.acr)} (${escapeHtml(session.amr)})</p>` +
        (session.organization === undefined ? '' : `<p>Empresas: ${escapeHtml(session.organization)}</p>`) +
        (canRefresh ? '<form method="post" action="/renovar"><button>Renovar tokens</button></form>' : '') +
        '<form method="post" action="/salir"><button>Salir de la app</button></form>'
      : '<p>Sin sesión en la app</p><p><a href="/entrar">Entrar con el portal</a></p>' +
        '<p><a href="/entrar?segundo-factor=1">Entrar con segundo factor</a></p>' +
        (offline ? '<p><a href="/entrar?sin-conexion=1">Entrar con acceso sin conexión</a></p>' : '');
    return (
      `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(options.title)}</title></head>` +
      `<body><main><h1>${escapeHtml(options.title)}</h1>` +
      (notice ? `<p role="status">${escapeHtml(notice)}</p>` : '') +
      `${body}</main></body></html>`
    );
  }

  async function signInReturn(request: http.IncomingMessage, response: http.ServerResponse, address: URL) {
    const state = cookiesOf(request).get(loginCookie) ?? '';
    const pending = pendingLogins.get(state);
    pendingLogins.delete(state);
    const clearLogin = `${loginCookie}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`;
    // RFC 9207: the answer names its issuer; one from anywhere else is not this portal's.
    if (!pending || address.searchParams.get('iss') !== options.issuer) {
      redirect(response, '/?aviso=respuesta-invalida', clearLogin);
      return;
    }
    let token: OAuth2Token;
    try {
      token = await client.authorizationCode.getTokenFromCodeRedirect(address.href, {
        redirectUri,
        state,
        codeVerifier: pending.codeVerifier,
      });
    } catch (error) {
      const code = error instanceof OAuth2Error ? String(error.oauth2Code) : '';
      redirect(response, PROTOCOL_ERROR.test(code) ? `/?error=${code}` : '/?aviso=respuesta-invalida', clearLogin);
      return;
    }
    const claims = await verifyIdToken(token.idToken ?? '', keys, options.issuer, options.clientId);
    const id = randomBytes(24).toString('base64url');
    sessions.set(id, {
      email: String(claims.email),
      sub: String(claims.sub),
      sid: typeof claims.sid === 'string' ? claims.sid : undefined,
      plan: planText(claims.plan),
      organization: organizationText(claims.organization),
      acr: String(claims.acr),
      amr: Array.isArray(claims.amr) ? claims.amr.join(' ') : '',
      token,
    });
    response.writeHead(303, {
      location: pending.landing,
      'cache-control': 'no-store',
      'set-cookie': [clearLogin, `${sessionCookie}=${id}; Path=/; HttpOnly; SameSite=Lax`],
    });
    response.end();
  }

  async function backchannelLogout(request: http.IncomingMessage, response: http.ServerResponse) {
    const token = new URLSearchParams(await readBody(request)).get('logout_token') ?? '';
    try {
      const claims = await verifyLogoutToken(token, keys, options.issuer, options.clientId);
      if (seenLogoutTokens.has(claims.jti)) throw new TokenRejected('a logout token seen before');
      seenLogoutTokens.add(claims.jti);
      let endedSessions = 0;
      for (const [id, session] of sessions) {
        if (session.sid === claims.sid && (claims.sub === undefined || claims.sub === session.sub)) {
          sessions.delete(id);
          endedSessions += 1;
        }
      }
      logouts.push({ sub: claims.sub, sid: claims.sid, endedSessions });
      response.writeHead(200, { 'cache-control': 'no-store' }).end();
    } catch (error) {
      if (!(error instanceof TokenRejected)) throw error;
      response.writeHead(400, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify({ error: 'invalid_request', error_description: error.message }));
    }
  }

  /** Sends the browser to the portal's authorization endpoint, remembering where to land once signed in. */
  async function startSignIn(
    response: http.ServerResponse,
    { offline, landing, stepUp = false }: { offline: boolean; landing: string; stepUp?: boolean },
  ) {
    const state = randomBytes(16).toString('base64url');
    const codeVerifier = await generateCodeVerifier();
    pendingLogins.set(state, { codeVerifier, landing });
    const authorizeUri = await client.authorizationCode.getAuthorizeUri({
      redirectUri,
      state,
      codeVerifier,
      scope: options.scopes.filter((scope) => offline || scope !== 'offline_access'),
      extraParams: {
        // OpenID Connect Core §11: a refresh token for offline use is granted with prompt=consent.
        ...(offline ? { prompt: 'consent' } : {}),
        // Step-up: a second factor proved in this sign-in, the `acr` essential.
        ...(stepUp ? { acr_values: STEP_UP_ACR, claims: JSON.stringify(STEP_UP_CLAIMS) } : {}),
      },
    });
    redirect(response, authorizeUri, `${loginCookie}=${state}; Path=/; HttpOnly; SameSite=Lax`);
  }

  /** A target_link_uri on this app, as a path to land on; the home page for anything else. */
  function ownPage(target: string | null): string {
    const parsed = target && URL.canParse(target) ? new URL(target) : null;
    return parsed?.origin === url ? `${parsed.pathname}${parsed.search}` : '/';
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const address = new URL(request.url ?? '/', url);
    const sessionId = cookiesOf(request).get(sessionCookie) ?? '';
    const session = sessions.get(sessionId);
    const route = `${request.method} ${address.pathname}`;
    if (route === 'GET /') {
      const error = address.searchParams.get('error') ?? '';
      const notice = PROTOCOL_ERROR.test(error)
        ? `El portal respondió: error=${error}`
        : NOTICES[address.searchParams.get('aviso') ?? ''];
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(page(session, notice));
    } else if (route === 'GET /entrar') {
      const offline = address.searchParams.has('sin-conexion') && options.scopes.includes('offline_access');
      await startSignIn(response, { offline, landing: '/', stepUp: address.searchParams.has('segundo-factor') });
    } else if (route === 'GET /iniciar') {
      // A sign-in the portal started (Core §4): only from this app's issuer, and only onto a page of this app, since
      // anyone can link here with any target_link_uri.
      if (address.searchParams.get('iss') !== options.issuer) return redirect(response, '/?aviso=respuesta-invalida');
      await startSignIn(response, { offline: false, landing: ownPage(address.searchParams.get('target_link_uri')) });
    } else if (route === 'GET /callback') {
      await signInReturn(request, response, address);
    } else if (route === 'POST /backchannel-logout') {
      await backchannelLogout(request, response);
    } else if (route === 'POST /renovar') {
      if (!session) return redirect(response, '/');
      try {
        session.token = await client.refreshToken(session.token);
        // A refresh answers a new ID token: what the portal says now of the person's plan and companies.
        if (session.token.idToken) {
          const claims = await verifyIdToken(session.token.idToken, keys, options.issuer, options.clientId);
          session.plan = planText(claims.plan);
          session.organization = organizationText(claims.organization);
        }
        redirect(response, '/?aviso=renovado');
      } catch {
        // A refused refresh (revoked, reused, expired) ends the app's session: the person signs in again.
        sessions.delete(sessionId);
        redirect(response, '/?aviso=renovacion-rechazada');
      }
    } else if (route === 'POST /salir') {
      sessions.delete(sessionId);
      redirect(response, '/', `${sessionCookie}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`);
    } else {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('No encontrado');
    }
  }

  const server = http.createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Error de la app');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });

  const sessionOf = (email: string) => [...sessions.values()].find((session) => session.email === email.toLowerCase());
  return {
    url,
    logouts,
    refreshTokenOf: (email) => sessionOf(email)?.token.refreshToken ?? null,
    sidOf: (email) => sessionOf(email)?.sid,
    refreshWith: (refreshToken) => client.refreshToken({ accessToken: '', expiresAt: null, refreshToken }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
