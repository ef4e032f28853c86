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
import { accountClaims, type EntitlementClaims, entitlementClaims, subjectOf, userIdOf } from './claims.js';
import { clientMetadata, clientSecretMatches, findClient, portalClientMetadata } from './clients.js';
import type { ProviderMemory } from './provider-memory.js';
import { formPostPage, libraryFormPost, logoutPage } from './logout-page.js';
import { type OidcScope, knownScopes, oidcScopes, scopeClaims } from './scopes.js';

/** Where the provider's endpoints live under the issuer; the JWKS is the portal's own, already published. */
export const oidcRoutes = {
  authorization: '/oidc/auth',
  token: '/oidc/token',
  userinfo: '/oidc/me',
  introspection: '/oidc/token/introspection',
  revocation: '/oidc/token/revocation',
  end_session: '/oidc/session/end',
  jwks: '/.well-known/jwks.json',
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
  /** Behind a trusted proxy, the request's protocol and host come from X-Forwarded-*. */
  proxy: boolean;
  /** Back-channel logouts may reach loopback and private addresses (the library's SSRF guard lifted for them). */
  backchannelPrivateNetwork: boolean;
  defaultSessionTtlSeconds: number;
  /** What the provider keeps in this instance's session memory (provider-memory.ts). */
  memory: ProviderMemory;
  /** Wakes the back-channel delivery loop after logouts were queued. */
  logoutsQueued(): void;
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
}

// Per client instance: `metadata()` maps every key of the client afresh, a large share of a userinfo call's time, and
// the library keeps one instance per version of a client's metadata.
const factsOfClient = new WeakMap<Client, Readonly<PortalFacts>>();

/** The portal's own facts about a client: first party (no consent) and the catalogue app it belongs to. */
export function portalFacts(client: Client): Readonly<PortalFacts> {
  let facts = factsOfClient.get(client);
  if (!facts) {
    const metadata = client.metadata() as Record<string, unknown>;
    facts = Object.freeze({
      firstParty: metadata.portal_first_party === true,
      appId: typeof metadata.portal_app_id === 'number' ? metadata.portal_app_id : null,
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
      },
    },
    async findAccount(ctx, sub) {
      const user = await activeAccount(db, deps.memory, sub);
      if (!user) return undefined;
      return {
        accountId: subjectOf(user.id),
        async claims() {
          const appId = ctx.oidc.client ? portalFacts(ctx.oidc.client).appId : null;
          const kept = await keptEntitlementClaims(db, deps.memory, user, appId);
          return accountClaims(user, kept.plan, kept.organization, kept.lapsedPlan);
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
          const page = await logoutPage(ctx, form);
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
      deviceFlow: { enabled: false },
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
  provider.proxy = deps.proxy;

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

/** The account behind a subject, from the session memory when kept there (an active one only). */
async function activeAccount(db: Db, memory: ProviderMemory, sub: string): Promise<User | undefined> {
  const userId = userIdOf(sub);
  if (userId === undefined) return undefined;
  const kept = memory.get(userId, 'oidc:account') as User | undefined;
  if (kept) return kept.status === 'active' ? kept : undefined;
  const ticket = memory.ticket();
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return undefined;
  memory.store(ticket, user, 'oidc:account', user);
  return user.status === 'active' ? user : undefined;
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

/** Sends one back-channel logout with the library's own implementation (logout token signed, posted, status checked). */
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

/** An app's RP-initiated logout: the portal session in that browser ends too (its triggers tell the other apps). */
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

/** The Spanish words for the protocol's error codes (RFC 6749 §5.2, RFC 6750 §3.1, RFC 7009, RFC 7662). */
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
};

export function protocolErrorMessage(code: string): string {
  return Object.hasOwn(protocolErrors, code) ? (protocolErrors[code] as string) : 'La solicitud no es válida';
}
