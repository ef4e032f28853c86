// The portal as an OpenID Connect provider, driven as partner apps and a browser would: the API listening on a real
// port (its issuer), relying parties built on libraries this project did not write (oidc-client-ts, the OpenID
// Foundation's AppAuth, @badgateway/oauth2-client), a browser whose cookies follow the rules (tough-cookie: domain,
// path, SameSite) and which plays the portal's /autorizar page with the portal session's token.
import assert from 'node:assert/strict';
import { createPublicKey, type JsonWebKey, verify } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Adapter } from 'oidc-provider';
import { InMemoryWebStorage, OidcClient, type OidcClientSettings, WebStorageStateStore } from 'oidc-client-ts';
import * as openid from 'openid-client';
import { CookieJar } from 'tough-cookie';
import type { Config } from '../../src/config.js';
import { createClient, type OidcClientInput } from '../../src/domain/identity-provider/oidc/clients.js';
import { operatorActor } from '../../src/domain/audit/log.js';
import { users } from '../../src/db/schema.js';
import { type Backend, buildTestApp, type TestApp } from './app.js';
import { freePort } from './processes.js';

export const portalUrl = 'http://localhost:8080';

export interface OidcTestApi extends TestApp {
  /** The issuer: the API's origin, where it listens. */
  issuer: string;
}

/**
 * The real app listening on a loopback port whose origin is its issuer: `overrides.port` when the test must name its
 * address beforehand (a Google or Apple stand-in's registered callback), else a free one.
 */
export async function startOidcApi(
  backend: Backend,
  overrides: Partial<Config> = {},
  options: Parameters<typeof buildTestApp>[2] = {},
): Promise<OidcTestApi> {
  const port = overrides.port ?? (await freePort());
  const issuer = `http://127.0.0.1:${port}`;
  const test = await buildTestApp(
    backend,
    { port, apiPublicUrl: issuer, oidcIssuer: issuer, portalUrl, ...overrides },
    options,
  );
  await test.app.listen({ port, host: '127.0.0.1' });
  return { ...test, issuer };
}

/**
 * The `sub` a client registered since migration 0024 ('opaco', the default) knows a person by: the account's public id,
 * never the account id.
 */
export async function publicIdOf(app: FastifyInstance, userId: number): Promise<string> {
  const [row] = await app.db.select({ publicId: users.publicId }).from(users).where(eq(users.id, userId));
  if (!row) throw new Error(`no account ${userId}`);
  return row.publicId;
}

/** Headers that differ between any two answers. */
const perAnswer = new Set(['date', 'x-request-id']);

/** An answer of the API's own or of the library, as the two are held side by side. */
export interface Answer {
  status: number;
  text: string;
  /** Every header but those that differ between any two answers. */
  headers: Record<string, string>;
  /** The library looked the access token up (its adapter was asked), so the library answered. */
  byLibrary: boolean;
}

/** A parameter the library ignores and the API's own answer never takes: a request with it is the library's. */
export const libraryParameter = ['via', 'proveedor'] as const;

/**
 * Watches `app`'s library: every access token it looks up goes through its adapter, the API's own answer never
 * does. `answer` sends a request and reads its answer, with whether the library answered it.
 */
export function watchLibrary(app: FastifyInstance) {
  let lookups = 0;
  const adapter = app.identityProvider.provider.AccessToken.adapter as Adapter;
  const find = adapter.find.bind(adapter);
  adapter.find = (id: string) => {
    lookups += 1;
    return find(id);
  };
  return {
    get lookups() {
      return lookups;
    },
    async answer(send: () => Promise<Response>): Promise<Answer> {
      const before = lookups;
      const response = await send();
      const headers: Record<string, string> = {};
      for (const [name, value] of response.headers) if (!perAnswer.has(name)) headers[name] = value;
      return { status: response.status, text: await response.text(), headers, byLibrary: lookups > before };
    },
  };
}

/** The API's answer and the library's to the same request: the same status, body and headers. */
export function assertSameAnswer(answer: Answer, library: Answer): void {
  assert.equal(answer.status, library.status);
  assert.equal(answer.text, library.text);
  assert.deepEqual(answer.headers, library.headers);
}

/** Registers a client as an administrator would (through the domain, audited as the operator). */
export async function registerClient(app: FastifyInstance, input: OidcClientInput) {
  const created = await createClient(app.db, operatorActor, input, async () => {});
  return { clientId: created.client.clientId, clientSecret: created.clientSecret };
}

export interface Hop {
  status: number;
  url: string;
  location?: string;
}

/**
 * A browser: cookies by the rules, redirects followed by hand (so each hop can be looked at), and the portal's
 * /autorizar page played with `portalToken` (the portal session of this browser, as its localStorage would hold).
 */
export class TestBrowser {
  readonly jar = new CookieJar();
  /** Every hop of the last `navigate`. */
  hops: Hop[] = [];
  portalToken: string | undefined;
  /** The address this browser is seen from behind the API's trusted proxy (`x-forwarded-for`), when set. */
  forwardedFor: string | undefined;

  constructor(private readonly issuer: string) {}

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = await this.jar.getCookieString(url, { sameSiteContext: 'lax', http: true });
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        // What a browser asks for when it follows a link or a redirect.
        accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
        ...(init.headers as Record<string, string>),
        ...(cookie ? { cookie } : {}),
        ...(this.forwardedFor ? { 'x-forwarded-for': this.forwardedFor } : {}),
      },
    });
    for (const line of response.headers.getSetCookie()) await this.jar.setCookie(line, url, { ignoreError: true });
    return response;
  }

  /**
   * Goes to `url` and follows redirects until the browser leaves the API: answers the first address outside it (an
   * app's redirect URI, a portal page) and the last response.
   */
  async navigate(url: string, init: RequestInit = {}): Promise<{ url: string; response: Response }> {
    this.hops = [];
    let next = url;
    let response = await this.request(next, init);
    for (let hop = 0; hop < 20; hop++) {
      const location = response.headers.get('location') ?? undefined;
      this.hops.push({ status: response.status, url: next, ...(location ? { location } : {}) });
      if (response.status < 300 || response.status >= 400 || !location) return { url: next, response };
      next = new URL(location, next).href;
      if (!next.startsWith(this.issuer)) return { url: next, response };
      response = await this.request(next);
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /** A call of the portal's page to the API: the interaction cookie goes with it, and the session when there is one. */
  async portalCall(path: string, init: { method?: string; body?: unknown; token?: string | null } = {}) {
    const token = init.token === undefined ? this.portalToken : init.token;
    return this.request(`${this.issuer}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        origin: portalUrl,
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
  }

  /**
   * Signs in to an app: follows its authorization URL; where the portal's /autorizar page appears, answers as the
   * page does with this browser's portal session (allowing a third-party app when `allow`), and follows on to the
   * app. Answers the address the browser ends on (the app's redirect URI with its code, or a portal page).
   */
  async signInTo(authorizationUrl: string, options: { allow?: boolean } = {}): Promise<string> {
    let { url } = await this.navigate(authorizationUrl);
    for (let round = 0; round < 3 && url.startsWith(`${portalUrl}/autorizar?`); round++) {
      const uid = new URL(url).searchParams.get('interaccion') ?? '';
      const answer = await this.portalCall(`/oidc/interaccion/${uid}/continuar`, {
        method: 'POST',
        body: options.allow ? { permitir: true } : {},
      });
      if (answer.status !== 200) return `${url}#${answer.status}:${await answer.text()}`;
      const { redirectTo } = (await answer.json()) as { redirectTo: string };
      ({ url } = await this.navigate(redirectTo));
    }
    return url;
  }
}

/** An oidc-client-ts client in Node (its state kept in memory instead of the browser's storage). */
export function relyingParty(settings: Omit<OidcClientSettings, 'stateStore'>): OidcClient {
  return new OidcClient({
    ...settings,
    stateStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
  });
}

/** An app's back-channel logout endpoint: keeps every logout token posted to it, answers `status`. */
export interface LogoutReceiver {
  url: string;
  tokens: string[];
  status: number;
  close(): Promise<void>;
}

export async function startLogoutReceiver(): Promise<LogoutReceiver> {
  const receiver: LogoutReceiver = { url: '', tokens: [], status: 200, close: async () => {} };
  const server: Server = createServer(async (request: IncomingMessage, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const token = new URLSearchParams(body).get('logout_token');
    if (request.method === 'POST' && token && receiver.status < 300) receiver.tokens.push(token);
    response.writeHead(receiver.status, { 'cache-control': 'no-store' }).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  receiver.url = `http://127.0.0.1:${port}/backchannel-logout`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}

/** The claims of a JWT, unverified (the tests verify signatures where that is the point). */
export function claimsOf(jwt: string): Record<string, unknown> {
  const [, payload = ''] = jwt.split('.');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

// What these tests use of AppAuth-JS. Its published declarations re-export from paths without extensions, which
// TypeScript's Node ESM resolution does not follow; the runtime (through tsx) loads them fine.
interface AppAuthTokenResponse {
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
}
interface AppAuthRequest {
  state: string;
  internal?: Record<string, string>;
  setupCodeVerifier(): Promise<void>;
}
interface AppAuth {
  AuthorizationServiceConfiguration: { fetchFromIssuer(issuer: string, requestor: unknown): Promise<unknown> };
  AuthorizationRequest: (new (
    request: Record<string, unknown>,
    crypto: unknown,
    usePkce: boolean,
  ) => AppAuthRequest) & { RESPONSE_TYPE_CODE: string };
  AuthorizationRequestHandler: new (
    utils: unknown,
    crypto: unknown,
  ) => { buildRequestUrl(configuration: unknown, request: AppAuthRequest): string };
  BasicQueryStringUtils: new () => unknown;
  BaseTokenRequestHandler: new (
    requestor: unknown,
  ) => {
    performTokenRequest(configuration: unknown, request: unknown): Promise<AppAuthTokenResponse>;
  };
  TokenRequest: new (request: Record<string, unknown>) => unknown;
  GRANT_TYPE_AUTHORIZATION_CODE: string;
  GRANT_TYPE_REFRESH_TOKEN: string;
}
interface AppAuthNode {
  NodeCrypto: new () => unknown;
  NodeRequestor: new () => unknown;
}

/**
 * A native app (the mobile apps' custom scheme, a desktop app's loopback redirect) as the OpenID Foundation's AppAuth
 * library drives one: PKCE S256, the authorization URL the app opens in the system browser, and its token requests.
 */
export async function nativeApp(issuer: string, clientId: string, redirectUri: string, scope: string) {
  const appauth = (await import('@openid/appauth')) as unknown as AppAuth;
  const { NodeCrypto, NodeRequestor } = (await import(
    '@openid/appauth/built/src/node_support/index.js'
  )) as unknown as AppAuthNode;
  const requestor = new NodeRequestor();
  const configuration = await appauth.AuthorizationServiceConfiguration.fetchFromIssuer(issuer, requestor);
  // The library's own URL building (a protected method of its handlers); the system browser is the test's.
  const handler = new appauth.AuthorizationRequestHandler(new appauth.BasicQueryStringUtils(), new NodeCrypto());
  const tokens = new appauth.BaseTokenRequestHandler(requestor);
  const request = new appauth.AuthorizationRequest(
    {
      client_id: clientId,
      redirect_uri: redirectUri,
      scope,
      response_type: appauth.AuthorizationRequest.RESPONSE_TYPE_CODE,
      extras: { prompt: 'consent' },
    },
    new NodeCrypto(),
    true,
  );
  await request.setupCodeVerifier();
  return {
    configuration,
    authorizationUrl: handler.buildRequestUrl(configuration, request),
    state: request.state,
    async exchange(landed: string) {
      const code = new URL(landed).searchParams.get('code') ?? '';
      return tokens.performTokenRequest(
        configuration,
        new appauth.TokenRequest({
          client_id: clientId,
          redirect_uri: redirectUri,
          grant_type: appauth.GRANT_TYPE_AUTHORIZATION_CODE,
          code,
          extras: { code_verifier: request.internal?.code_verifier ?? '' },
        }),
      );
    },
    async refresh(refreshToken: string) {
      return tokens.performTokenRequest(
        configuration,
        new appauth.TokenRequest({
          client_id: clientId,
          redirect_uri: redirectUri,
          grant_type: appauth.GRANT_TYPE_REFRESH_TOKEN,
          refresh_token: refreshToken,
        }),
      );
    },
  };
}

/**
 * A confidential server app as @badgateway/oauth2-client drives one: discovery, code with PKCE and
 * client_secret_basic, refresh, introspection and revocation.
 */
export async function serverApp(issuer: string, clientId: string, clientSecret: string, redirectUri: string) {
  const { OAuth2Client, generateCodeVerifier } = await import('@badgateway/oauth2-client');
  const client = new OAuth2Client({
    server: `${issuer}/`,
    clientId,
    clientSecret,
    discoveryEndpoint: '/.well-known/openid-configuration',
    authenticationMethod: 'client_secret_basic',
  });
  const codeVerifier = await generateCodeVerifier();
  const state = `estado-${Math.random().toString(36).slice(2)}`;
  return {
    client,
    state,
    codeVerifier,
    authorizationUrl: (scope: string[], extra: Record<string, string> = {}) =>
      client.authorizationCode
        .getAuthorizeUri({ redirectUri, state, codeVerifier, scope, extraParams: extra })
        .then((url) => url),
    exchange: (landed: string) =>
      client.authorizationCode.getTokenFromCodeRedirect(landed, { redirectUri, state, codeVerifier }),
  };
}

/**
 * openid-client 6 configured for a client of the provider at `issuer` (plain HTTP on loopback): with `auth`, that
 * client authentication; without it, the library's default for the client (its secret, if any, in the body).
 */
export function openidClient(
  issuer: string,
  client: { clientId: string; clientSecret?: string },
  auth?: openid.ClientAuth,
): Promise<openid.Configuration> {
  return openid.discovery(new URL(issuer), client.clientId, auth ? undefined : client.clientSecret, auth, {
    execute: [openid.allowInsecureRequests],
  });
}

/**
 * The authorization code flow with PKCE as openid-client runs it, consent asked, played by `browser` (its
 * `portalToken` is the person's portal session): the token endpoint's answer.
 */
export async function codeFlow(config: openid.Configuration, browser: TestBrowser, redirect: string, scope: string) {
  const verifier = openid.randomPKCECodeVerifier();
  const state = openid.randomState();
  const url = openid.buildAuthorizationUrl(config, {
    redirect_uri: redirect,
    scope,
    state,
    code_challenge: await openid.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    prompt: 'consent',
  });
  const landed = await browser.signInTo(url.href);
  assert.ok(landed.startsWith(redirect), landed);
  return openid.authorizationCodeGrant(config, new URL(landed), { pkceCodeVerifier: verifier, expectedState: state });
}

/** The claims of a logout token whose ES256 signature verifies against the issuer's published keys. */
export async function verifiedLogoutClaims(jwt: string, issuer: string): Promise<Record<string, unknown>> {
  const [header = '', payload = '', signature = ''] = jwt.split('.');
  const { kid, alg, typ } = JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, string>;
  assert.equal(alg, 'ES256');
  assert.equal(typ, 'logout+jwt');
  const jwks = (await (await fetch(`${issuer}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
  const jwk = jwks.keys.find((key) => key.kid === kid);
  assert.ok(jwk, 'signed with a published key');
  const valid = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key: createPublicKey({ key: jwk as unknown as JsonWebKey, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  assert.ok(valid, 'the signature verifies');
  return claimsOf(jwt);
}

export const deviceGrant = 'urn:ietf:params:oauth:grant-type:device_code';

/** A protocol or API answer's body: the fields the device sign-in tests read. */
export interface ProtocolBody {
  error?: string;
  message?: string;
  device_authorization_endpoint?: string;
  grant_types_supported?: string[];
}
export const bodyOf = async (response: Response | Promise<Response>) => (await (await response).json()) as ProtocolBody;

/** A device as openid-client drives one, for a client of `issuer` (which listens on plain HTTP on loopback). */
export const deviceRelyingParty = (issuer: string, clientId: string, secret?: string) =>
  openid.discovery(new URL(issuer), clientId, secret, secret ? undefined : openid.None(), {
    execute: [openid.allowInsecureRequests],
  });

/** One poll of the token endpoint at `base` (the public address, or one instance's own), as the device sends it. */
export const pollDevice = (base: string, deviceCode: string, clientId: string) =>
  fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: deviceGrant, device_code: deviceCode, client_id: clientId }),
  });

/** What the portal's /dispositivo sends to `app`: a typed code looked up, or answered, with the person's session. */
export const answerDevice = (
  app: FastifyInstance,
  path: 'consultar' | 'confirmar',
  body: object,
  token?: string,
  remoteAddress = '127.0.0.1',
) =>
  app.inject({
    method: 'POST',
    url: `/oidc/dispositivo/${path}`,
    payload: body,
    remoteAddress,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
