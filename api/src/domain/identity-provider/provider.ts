// The portal's OpenID Connect provider (docs/decisions/0055-openid-connect-provider.md): oidc-provider configured with
// the portal's storage, keys, accounts, screens and sessions. Nothing of the protocol is written here.
import { hkdfSync } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { exportJWK } from 'jose';
import Provider, {
  type Configuration,
  type KoaContextWithOIDC,
  errors,
  interactionPolicy,
  type Client,
} from 'oidc-provider';
import type { Db } from '../../db/client.js';
import { oidcConsents, oidcLogoutDeliveries, oidcSessionLinks, sessions, type User, users } from '../../db/schema.js';
import type { SigningKey } from '../tokens/keys.js';
import { algorithm } from '../tokens/keys.js';
import { createAdapterFactory } from './adapter.js';
import { accountClaims, accountIdOf, type EntitlementClaims, entitlementClaims, userIdOf } from './claims.js';
import {
  clientMetadata,
  clientSecretMatches,
  deviceCodeGrantType,
  findClient,
  portalClientMetadata,
} from './clients.js';
import { type DeviceInfo, devicePollIntervalSeconds, userCodeMask } from './device.js';
import { addressedToIssuer } from './issuer-address.js';
import type { ProviderMemory } from './provider-memory.js';
import { formPostPage, libraryFormPost, logoutPage } from './logout-page.js';
import { type OidcScope, knownScopes, oidcScopes, scopeClaims } from './scopes.js';
import { type SubjectRule, subjectFor } from './subjects.js';
import { oidcSubjectKinds } from '../../db/schema.js';
import { currentRequestAddress } from '../../lib/request-scope.js';

/** Where the provider's endpoints live under the issuer; the JWKS is the portal's own, already published. */
export const oidcRoutes = {
  authorization: '/oidc/auth',
  token: '/oidc/token',
  userinfo: '/oidc/me',
  introspection: '/oidc/token/introspection',
  revocation: '/oidc/token/revocation',
  end_session: '/oidc/session/end',
  jwks: '/.well-known/jwks.json',
  device_authorization: '/oidc/device/auth',
  // Never mounted: the person answers at the portal's /dispositivo (device.ts); the library needs a path all the same.
  code_verification: '/oidc/device',
} as const;

/** The path of an interaction on the API: it sends the browser on to the portal's screens. */
export const interactionPath = (uid: string) => `/oidc/interaccion/${encodeURIComponent(uid)}`;

/** Lifetimes, in seconds. Codes are short; access tokens are opaque and checked at each use, so they may last a while. */
export const oidcLifetimes = {
  authorizationCode: 60,
  accessToken: 15 * 60,
  idToken: 60 * 60,
  interaction: 30 * 60,
  refreshToken: 30 * 24 * 60 * 60,
  /** A device's code: long enough to find the phone, sign in and type it (RFC 8628 §3.2 `expires_in`). */
  deviceCode: 10 * 60,
} as const;

/** What the portal passes along with a finished interaction, for the session link (routes/oidc/interactions.ts). */
export interface PortalLogin {
  sessionId: string;
  /** The portal session's expiry, epoch seconds: the provider session never outlives it. */
  expiresAt: number;
}

/** Why a provider session's apps are being told to log out: written with each delivery, read in the audit log. */
export type LogoutReason =
  | 'logout'
  | 'rp_logout'
  | 'access_revoked'
  | 'credentials_changed'
  | 'account_suspended'
  | 'account_pending_verification'
  | 'account_deleted';

export interface IdentityProviderDeps {
  db: Db;
  issuer: string;
  portalUrl: string;
  signingKey: SigningKey;
  /** Back-channel logouts may reach loopback and private addresses (the library's SSRF guard lifted for them). */
  backchannelPrivateNetwork: boolean;
  defaultSessionTtlSeconds: number;
  /** What the provider keeps in this instance's session memory (provider-memory.ts). */
  memory: ProviderMemory;
  /** Wakes the back-channel delivery loop after logouts were queued. */
  logoutsQueued(): void;
  /**
   * Whether a device polled for this device code less than `devicePollIntervalSeconds` ago (RFC 8628 §3.5 slow_down);
   * it counts this poll as the last one either way.
   */
  devicePollTooSoon(deviceCode: string): Promise<boolean>;
  /** Reports what the provider did (metrics and logs). */
  events: {
    tokenIssued(grantType: string): void;
    serverError(error: unknown): void;
  };
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** Cookie keys derived from the signing key: every instance sharing JWT_PRIVATE_KEY verifies the others' cookies. */
function cookieKeys(key: SigningKey): string[] {
  const secret = key.privateKey.export({ format: 'der', type: 'pkcs8' });
  return [Buffer.from(hkdfSync('sha256', secret, 'portal-oidc', 'cookies', 32)).toString('base64url')];
}

/** True while the portal session a provider session was signed in with is live (not ended, expired or outdated). */
export async function portalSessionAlive(db: Db, sessionUid: string, accountId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(oidcSessionLinks)
    .innerJoin(sessions, eq(sessions.id, oidcSessionLinks.portalSessionId))
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(oidcSessionLinks.sessionUid, sessionUid),
        eq(sql`${sessions.userId}::text`, accountId),
        isNull(sessions.endedAt),
        gt(sessions.expiresAt, sql`now()`),
        eq(sessions.tokenVersion, users.tokenVersion),
        eq(users.status, 'active'),
      ),
    );
  return row !== undefined;
}

/** The scopes a person already allowed a third-party app (their answer on the consent screen), or none. */
export async function rememberedScopes(db: Db, userId: number, clientId: string): Promise<Set<string>> {
  const [row] = await db
    .select({ scopes: oidcConsents.scopes })
    .from(oidcConsents)
    .where(and(eq(oidcConsents.userId, userId), eq(oidcConsents.clientId, clientId)));
  return new Set(row?.scopes ?? []);
}

export interface PortalFacts {
  firstParty: boolean;
  appId: number | null;
  /** How the client's `sub` is made (subjects.ts). */
  subject: SubjectRule;
}

// Per client instance: `metadata()` maps every key of the client afresh, a large share of a userinfo call's time, and
// the library keeps one instance per version of a client's metadata.
const factsOfClient = new WeakMap<Client, Readonly<PortalFacts>>();

/** How a client's subjects are made, from its metadata (as the library or the session memory holds it). */
export function subjectRuleOf(metadata: Record<string, unknown>): Readonly<SubjectRule> {
  return Object.freeze({
    kind: (oidcSubjectKinds as readonly unknown[]).includes(metadata.portal_subject)
      ? (metadata.portal_subject as SubjectRule['kind'])
      : 'opaco',
    salt: typeof metadata.portal_subject_salt === 'string' ? metadata.portal_subject_salt : null,
  });
}

/**
 * The portal's own facts about a client: first party (no consent), the catalogue app it belongs to, and how its
 * subjects are made.
 */
export function portalFacts(client: Client): Readonly<PortalFacts> {
  let facts = factsOfClient.get(client);
  if (!facts) {
    const metadata = client.metadata() as Record<string, unknown>;
    facts = Object.freeze({
      firstParty: metadata.portal_first_party === true,
      appId: typeof metadata.portal_app_id === 'number' ? metadata.portal_app_id : null,
      subject: subjectRuleOf(metadata),
    });
    factsOfClient.set(client, facts);
  }
  return facts;
}

/**
 * The web origin of a redirect URI, or undefined for one that has none: a native app's custom scheme gives the opaque
 * origin "null", which is also what a sandboxed frame of any site sends, so it never grants anything.
 */
export function redirectOrigin(uri: string): string | undefined {
  const origin = URL.canParse(uri) ? new URL(uri).origin : 'null';
  return origin === 'null' ? undefined : origin;
}

/** A public client's token, userinfo and revocation calls come from the browser: its redirect URIs' origins only. */
export function clientAllowsOrigin(origin: string, client: Client): boolean {
  return client.redirectUris?.some((uri) => redirectOrigin(uri) === origin) === true;
}

/** The scopes of a request that the client may have: what the consent screen lists and a grant holds. */
export function requestedScopes(client: Client, scope: unknown): OidcScope[] {
  const allowed = new Set(String(client.scope ?? '').split(' '));
  return knownScopes(
    String(scope ?? '')
      .split(' ')
      .filter((item) => allowed.has(item)),
  );
}

/**
 * Whether the person's answer is needed: never for a first-party client; for a third-party one, unless they already
 * allowed every scope asked for.
 */
export function consentNeeded(firstParty: boolean, asked: readonly string[], remembered: Set<string>): boolean {
  return !firstParty && asked.some((scope) => scope !== 'openid' && !remembered.has(scope));
}

/**
 * The portal's page where a person types a device's code (RFC 8628 `verification_uri`), and with the code filled in
 * (`verification_uri_complete`): the page still asks before anything is granted.
 */
export function deviceVerificationUri(portalUrl: string, userCode?: string): string {
  const page = `${portalUrl}/dispositivo`;
  return userCode === undefined ? page : `${page}?codigo=${encodeURIComponent(userCode)}`;
}

/** Where the portal shows an error the provider cannot send back to the app (a fixed reason, never request text). */
export function errorPageUrl(portalUrl: string, reason: string): string {
  return `${portalUrl}/autorizar/error?motivo=${encodeURIComponent(reason)}`;
}

function errorReason(ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }, error: Error) {
  if (error.name === 'SessionNotFound') return 'solicitud_expirada';
  if (out.error === 'invalid_client') return 'cliente_desconocido';
  if (out.error === 'invalid_redirect_uri') return 'redireccion_no_registrada';
  if (ctx.oidc?.route === 'end_session' && /post_logout_redirect_uri/.test(out.error_description ?? ''))
    return 'redireccion_no_registrada';
  if (out.error === 'server_error') return 'error_servidor';
  return 'solicitud_invalida';
}

export async function createIdentityProvider(deps: IdentityProviderDeps): Promise<Provider> {
  const { db } = deps;
  const privateJwk = {
    ...(await exportJWK(deps.signingKey.privateKey)),
    kid: deps.signingKey.kid,
    alg: algorithm,
    use: 'sig',
  };

  const policy = interactionPolicy.base();
  // An app's id_token_hint names the person by the `sub` it was given, which is the account id only for 'numerico'
  // clients: the library's own check compares it with the accountId. Same place, same answer, the client's subject.
  const loginChecks = policy.get('login')?.checks;
  const hintIndex = loginChecks?.findIndex((check) => check.reason === 'id_token_hint') ?? -1;
  loginChecks?.remove('id_token_hint');
  loginChecks?.add(
    new interactionPolicy.Check(
      'id_token_hint',
      'id_token_hint and authenticated subject do not match',
      'login_required',
      async (ctx) => {
        const hint = ctx.oidc.entities.IdTokenHint as { payload?: { sub?: unknown } } | undefined;
        if (hint === undefined) return false;
        const { session, client } = ctx.oidc;
        if (!session?.accountId || !client) return true;
        return hint.payload?.sub !== (await subjectOfAccount(db, deps.memory, client, session.accountId));
      },
    ),
    hintIndex === -1 ? undefined : hintIndex,
  );
  // One session: a provider session whose portal session is over asks for a sign-in again, even if its cookie lives.
  policy.get('login')?.checks.add(
    new interactionPolicy.Check(
      'portal_session_ended',
      'the portal session this provider session was signed in with is over',
      'login_required',
      async (ctx) => {
        const { session } = ctx.oidc;
        if (!session?.accountId || ctx.oidc.result?.login) return false;
        return !(await portalSessionAlive(db, session.uid, session.accountId));
      },
    ),
  );

  const configuration: Configuration = {
    adapter: createAdapterFactory({
      db,
      clientMetadata: async (clientId) => {
        const row = await findClient(db, clientId);
        return row ? clientMetadata(row) : undefined;
      },
      memory: deps.memory,
    }),
    jwks: { keys: [privateJwk] },
    cookies: {
      keys: cookieKeys(deps.signingKey),
      names: {
        session: 'portal_oidc_sesion',
        interaction: 'portal_oidc_interaccion',
        resume: 'portal_oidc_reanudar',
      },
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    routes: oidcRoutes,
    scopes: [...oidcScopes],
    claims: { ...scopeClaims },
    // Scope claims go into the ID token too: the app learns the person and the plan from the token, not a second call.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    // What discovery advertises is what a client can use: a confidential client presents its secret in the header
    // (client_secret_basic, its registered method) or in the form (the library takes either for a secret), a public
    // one none (clients.ts); a JWT method has no key to check here and would always fail.
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    pkce: { required: () => true },
    allowOmittingSingleRegisteredRedirectUri: false,
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: algorithm,
    },
    enabledJWA: {
      idTokenSigningAlgValues: [algorithm],
      userinfoSigningAlgValues: [algorithm],
      introspectionSigningAlgValues: [algorithm],
      authorizationSigningAlgValues: [algorithm],
    },
    extraClientMetadata: {
      properties: [...portalClientMetadata],
      validator(_ctx, key, value) {
        if (key === 'portal_first_party' && typeof value !== 'boolean') throw new errors.InvalidClientMetadata(key);
        if (key === 'portal_app_id' && value !== null && !Number.isInteger(value))
          throw new errors.InvalidClientMetadata(key);
        if (key === 'portal_subject' && !(oidcSubjectKinds as readonly unknown[]).includes(value))
          throw new errors.InvalidClientMetadata(key);
        if (key === 'portal_subject_salt' && value !== undefined && typeof value !== 'string')
          throw new errors.InvalidClientMetadata(key);
      },
    },
    async findAccount(ctx, sub) {
      const user = await activeAccount(db, deps.memory, sub);
      if (!user) return undefined;
      return {
        // The library's accountId stays the account id (sessions, grants and tokens are found by it); the `sub` the
        // client reads (ID token, userinfo) is its own subject.
        accountId: accountIdOf(user.id),
        async claims() {
          const { client } = ctx.oidc;
          if (!client) throw new Error('claims asked for without a client');
          const { appId, subject } = portalFacts(client);
          const kept = await keptEntitlementClaims(db, deps.memory, user, appId);
          const sub = subjectFor(subject, user);
          // The library writes the accountId over `sub` (helpers/account_claims.js): the client's subject rides along
          // under a key no claim filter lets out, and is put back as the claims are masked (below).
          return { ...accountClaims(user, sub, kept.plan, kept.organization, kept.lapsedPlan), [clientSubject]: sub };
        },
      };
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      // A client revokes its own tokens (a public one too, to log out: RFC 7009 §2.1), never another's, and the answer
      // to a stranger's token is the same 200 as to an unknown one (docs/decisions/0055).
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => 'clientId' in token && token.clientId === client.clientId,
      },
      introspection: {
        enabled: true,
        // Only a confidential client, and only about its own tokens: another client's token answers inactive.
        allowedPolicy: async (_ctx, client, token) =>
          client.clientAuthMethod !== 'none' && 'clientId' in token && token.clientId === client.clientId,
      },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          const page = await logoutPage(ctx, form, (client, accountId) =>
            subjectOfAccount(db, deps.memory, client, accountId),
          );
          ctx.set('content-security-policy', page.contentSecurityPolicy);
          ctx.body = page.html;
        },
        async postLogoutSuccessSource(ctx) {
          ctx.status = 303;
          ctx.redirect(`${deps.portalUrl}/login`);
        },
      },
      backchannelLogout: { enabled: true },
      claimsParameter: { enabled: false },
      registration: { enabled: false },
      // Sign-in on devices (docs/decisions/0086): the person answers at the portal's /dispositivo, never on the
      // library's pages, which stay unmounted; were one reached all the same, it sends the browser to the portal.
      deviceFlow: {
        enabled: true,
        charset: 'base-20',
        mask: userCodeMask,
        // The address shown at /dispositivo is the API's reading behind its proxies (the request's scope), never Koa's:
        // Koa reads no forwarded header here (issuer-address.ts), so it would name the proxy.
        deviceInfo: (ctx): DeviceInfo => ({
          ip: currentRequestAddress() ?? ctx.ip,
          ua: ctx.get('user-agent') || undefined,
        }),
        async userCodeInputSource(ctx) {
          ctx.status = 303;
          ctx.redirect(deviceVerificationUri(deps.portalUrl));
        },
        async userCodeConfirmSource(ctx) {
          ctx.status = 303;
          ctx.redirect(deviceVerificationUri(deps.portalUrl));
        },
        async successSource(ctx) {
          ctx.status = 303;
          ctx.redirect(deviceVerificationUri(deps.portalUrl));
        },
      },
      pushedAuthorizationRequests: { enabled: false },
    },
    interactions: {
      policy,
      url: (_ctx, interaction) => interactionPath(interaction.uid),
    },
    async loadExistingGrant(ctx) {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      // The portal's own answer: first-party apps need no consent, and a third-party app keeps what the person allowed.
      const facts = portalFacts(client);
      const asked = requestedScopes(client, ctx.oidc.params?.scope);
      const userId = Number(session.accountId);
      const remembered = facts.firstParty ? new Set<string>() : await rememberedScopes(db, userId, client.clientId);
      if (consentNeeded(facts.firstParty, asked, remembered)) return existing;
      const grant =
        existing ?? new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      const missing = asked.filter((scope) => !grant.getOIDCScope().split(' ').includes(scope));
      if (missing.length > 0 || !existing) {
        grant.addOIDCScope(asked.join(' '));
        await grant.save();
      }
      return grant;
    },
    issueRefreshToken: async (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: oidcLifetimes.accessToken,
      AuthorizationCode: oidcLifetimes.authorizationCode,
      DeviceCode: oidcLifetimes.deviceCode,
      IdToken: oidcLifetimes.idToken,
      Interaction: oidcLifetimes.interaction,
      RefreshToken: oidcLifetimes.refreshToken,
      Grant: oidcLifetimes.refreshToken,
      // The provider session ends with the portal session it was signed in with.
      Session(ctx, session) {
        const portal = (ctx.oidc?.result as { portal?: PortalLogin } | undefined)?.portal;
        const now = seconds(Date.now());
        const until = portal?.expiresAt ?? session.exp;
        return until && until > now ? until - now : deps.defaultSessionTtlSeconds;
      },
    },
    clientBasedCORS: (_ctx, origin, client) => clientAllowsOrigin(origin, client),
    // The library's outgoing requests (back-channel logouts) refuse special-use addresses through a dispatcher of
    // its own; an operator whose apps live on the private network lifts that (OIDC_BACKCHANNEL_PRIVATE_NETWORK).
    fetch: (url, options) => {
      if (deps.backchannelPrivateNetwork) delete (options as { dispatcher?: unknown }).dispatcher;
      return globalThis.fetch(url, options);
    },
    async renderError(ctx, out, error) {
      ctx.status = 303;
      ctx.redirect(errorPageUrl(deps.portalUrl, errorReason(ctx, out, error)));
    },
  };

  const provider = new Provider(deps.issuer, configuration);
  // Nothing a request says about its address reaches the provider: its host and protocol are the issuer's, the
  // client's address the API's own reading (the request's scope, lib/request-scope.ts).
  provider.use(addressedToIssuer(deps.issuer));

  // Secrets are stored as SHA-256 (clients.ts): the presented one is hashed before the comparison.
  provider.Client.prototype.compareClientSecret = function compareClientSecret(this: Client, presented: string) {
    return clientSecretMatches(this.clientSecret, presented);
  };

  // Every back-channel logout goes through the queue: delivered, retried and audited by the loop, never on the request.
  const deliver = provider.Client.prototype.backchannelLogout as (
    this: Client,
    sub: string,
    sid: string,
  ) => Promise<void>;
  provider.Client.prototype.backchannelLogout = async function queueBackchannelLogout(
    this: Client,
    sub: string,
    sid: string,
  ) {
    await queueLogout(db, this.clientId, sub, sid, 'rp_logout');
    deps.logoutsQueued();
  };
  backchannelSenders.set(provider, (client, sub, sid) => deliver.call(client, sub, sid));

  // The ID token's and userinfo's `sub`: the client's own subject, which findAccount's claims carry under
  // `clientSubject`, over the accountId the library put there.
  const maskedClaims = provider.Claims.prototype.result;
  provider.Claims.prototype.result = async function clientSubjectClaims(this: { available: object }) {
    const claims = (await maskedClaims.call(this)) as Record<string, unknown>;
    const own = (this.available as Record<symbol, unknown>)[clientSubject];
    if (typeof own === 'string' && claims.sub !== undefined) claims.sub = own;
    return claims;
  };

  // Introspection answers the token's accountId as its `sub` (the account id): the client gets its own subject
  // instead. A token whose account is gone answers inactive, as it will once its rows are deleted.
  provider.use(async (ctx, next) => {
    await next();
    const { oidc } = ctx as KoaContextWithOIDC;
    if (oidc?.route !== 'introspection' || ctx.status !== 200 || !oidc.client) return;
    const body = ctx.body as { active?: boolean; sub?: unknown } | undefined;
    if (!body?.active || typeof body.sub !== 'string') return;
    const sub = await subjectOfAccount(db, deps.memory, oidc.client, body.sub);
    ctx.body = sub === undefined ? { active: false } : { ...body, sub };
  });

  // The provider session's link to the portal session, written as the provider session is signed in (the answer with
  // the code goes out after this); an app's logout ends the portal session it is linked to.
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as KoaContextWithOIDC).oidc;
    const session = oidc?.session;
    if (!session) return;
    if (oidc.route === 'resume' && session.accountId) {
      const portal = (oidc.entities.Interaction?.result as { portal?: PortalLogin } | undefined)?.portal;
      if (portal) await linkSession(db, session.uid, portal.sessionId, Number(session.accountId));
    }
    if (oidc.route === 'end_session_confirm' && (session as { destroyed?: boolean }).destroyed) {
      await endLinkedPortalSession(db, session.uid);
      deps.logoutsQueued();
    }
  });

  // The protocol's JSON errors keep their `error` code (what the apps' libraries read) and also carry the API's
  // `statusCode` and a Spanish `message`, as every other answer of the API does.
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { error?: unknown } | undefined;
    if (ctx.status >= 400 && body && typeof body === 'object' && typeof body.error === 'string') {
      ctx.body = { statusCode: ctx.status, message: protocolErrorMessage(body.error), ...body };
    }
  });

  // The device grant's answers, the portal's way: the address the device shows is the portal's /dispositivo (the
  // library would name its own page), a device that polls too fast is told slow_down (the library never says it),
  // and a client not allowed the grant is told unauthorized_client (RFC 6749 §5.2) rather than invalid_request.
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as KoaContextWithOIDC).oidc;
    const body = ctx.body as Record<string, unknown> | undefined;
    if (!oidc || !body || typeof body !== 'object') return;
    if (oidc.route === 'device_authorization') {
      if (ctx.status === 200 && typeof body.user_code === 'string') {
        body.verification_uri = deviceVerificationUri(deps.portalUrl);
        body.verification_uri_complete = deviceVerificationUri(deps.portalUrl, body.user_code);
        body.interval = devicePollIntervalSeconds;
      } else if (
        body.error === 'invalid_request' &&
        /is not allowed for this client/.test(String(body.error_description))
      ) {
        body.error = 'unauthorized_client';
      }
      return;
    }
    if (
      oidc.route === 'token' &&
      body.error === 'authorization_pending' &&
      oidc.params?.grant_type === deviceCodeGrantType
    ) {
      if (await deps.devicePollTooSoon(String(oidc.params.device_code))) {
        body.error = 'slow_down';
        body.error_description = 'you are polling too quickly and should back off at a reasonable rate';
      }
    }
  });

  // The library's self-submitting form (a logout with nobody signed in, a sign-in as somebody else ending the previous
  // provider session, the form_post response mode) is an English page of its own: the portal's page replaces it.
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

  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    deps.events.tokenIssued(String(ctx.oidc.params?.grant_type ?? 'unknown'));
  });
  provider.on('server_error', (_ctx: unknown, error: unknown) => deps.events.serverError(error));
  return provider;
}

/** Where findAccount's claims carry the client's subject of the person (a symbol: never a claim of its own). */
const clientSubject = Symbol('client subject');

/** The account behind a provider accountId, from the session memory when kept there, whatever its status. */
async function accountOf(db: Db, memory: ProviderMemory, accountId: string): Promise<User | undefined> {
  const userId = userIdOf(accountId);
  if (userId === undefined) return undefined;
  const kept = memory.get(userId, 'oidc:account') as User | undefined;
  if (kept) return kept;
  const ticket = memory.ticket();
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return undefined;
  memory.store(ticket, user, 'oidc:account', user);
  return user;
}

/** The account behind a provider accountId, when it is active. */
async function activeAccount(db: Db, memory: ProviderMemory, accountId: string): Promise<User | undefined> {
  const user = await accountOf(db, memory, accountId);
  return user?.status === 'active' ? user : undefined;
}

/** The `sub` a client knows the account behind a provider accountId by, or undefined when there is no such account. */
export async function subjectOfAccount(
  db: Db,
  memory: ProviderMemory,
  client: Client,
  accountId: string,
): Promise<string | undefined> {
  const user = await accountOf(db, memory, accountId);
  return user ? subjectFor(portalFacts(client).subject, user) : undefined;
}

/** Where the plan and organization claims of a client's app (or of no app) are kept with the account. */
export const entitlementKey = (appId: number | null) => `oidc:plan:${appId ?? 'none'}`;

/** Whether kept claims still stand: not past the earliest expiry they name, which no notification announces. */
export const entitlementsStand = (kept: EntitlementClaims, now = Date.now()) => kept.until === null || now < kept.until;

/**
 * The plan claim of a client's app and the organization claim, kept with the account: a change to a plan, seat,
 * membership, company or licence notifies it (migrations 0011, 0020), a second factor too (0021).
 */
export async function keptEntitlementClaims(
  db: Db,
  memory: ProviderMemory,
  user: User,
  appId: number | null,
): Promise<EntitlementClaims> {
  const key = entitlementKey(appId);
  const kept = memory.get(user.id, key) as EntitlementClaims | undefined;
  if (kept && entitlementsStand(kept)) return kept;
  const ticket = memory.ticket();
  const read = await entitlementClaims(db, user.id, appId);
  memory.store(ticket, user, key, read);
  return read;
}

/**
 * Sends one back-channel logout with the library's own implementation (logout token signed, posted, status checked);
 * `sub` is the client's own subject of the person (subjects.ts), not the accountId the library would put there.
 */
export type BackchannelSender = (client: Client, sub: string, sid: string) => Promise<void>;
const backchannelSenders = new WeakMap<Provider, BackchannelSender>();
export function backchannelSender(provider: Provider): BackchannelSender {
  const send = backchannelSenders.get(provider);
  if (!send) throw new Error('not a provider made by createIdentityProvider');
  return send;
}

export async function queueLogout(db: Db, clientId: string, sub: string, sid: string, reason: LogoutReason) {
  await db
    .insert(oidcLogoutDeliveries)
    .values({ clientId, accountId: sub, sid, reason })
    .onConflictDoNothing({ target: [oidcLogoutDeliveries.clientId, oidcLogoutDeliveries.sid] });
}

async function linkSession(db: Db, sessionUid: string, portalSessionId: string, userId: number) {
  await db
    .insert(oidcSessionLinks)
    .values({ sessionUid, portalSessionId, userId })
    .onConflictDoUpdate({ target: oidcSessionLinks.sessionUid, set: { portalSessionId, userId } });
}

/**
 * An app's RP-initiated logout: the portal session in that browser ends too (its triggers tell the other apps:
 * docs/triggers.md).
 */
async function endLinkedPortalSession(db: Db, sessionUid: string) {
  await db
    .update(sessions)
    .set({ endedAt: sql`now()` })
    .where(
      and(
        isNull(sessions.endedAt),
        eq(
          sessions.id,
          sql`(select ${oidcSessionLinks.portalSessionId} from ${oidcSessionLinks} where ${oidcSessionLinks.sessionUid} = ${sessionUid})`,
        ),
      ),
    );
}

/** The Spanish words for the protocol's error codes (RFC 6749 §5.2, RFC 6750 §3.1, RFC 7009, RFC 7662, RFC 8628). */
const protocolErrors: Record<string, string> = {
  invalid_request: 'La solicitud no es válida',
  invalid_client: 'La aplicación no está registrada o no se identificó correctamente',
  invalid_grant: 'El código o el token de actualización no es válido, expiró o ya se usó',
  unauthorized_client: 'La aplicación no puede usar este tipo de autorización',
  unsupported_grant_type: 'Tipo de autorización no admitido',
  invalid_scope: 'Permisos no válidos',
  invalid_token: 'El token no es válido o expiró',
  insufficient_scope: 'El token no tiene los permisos necesarios',
  unsupported_token_type: 'Tipo de token no admitido',
  access_denied: 'Acceso denegado',
  server_error: 'Error interno del servidor',
  authorization_pending: 'La persona aún no ha confirmado el código en el portal',
  slow_down: 'Consultas demasiado seguidas: espera unos segundos más entre una y otra',
  expired_token: 'El código del dispositivo expiró: pide uno nuevo',
};

export function protocolErrorMessage(code: string): string {
  return Object.hasOwn(protocolErrors, code) ? (protocolErrors[code] as string) : 'La solicitud no es válida';
}
