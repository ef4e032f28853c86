// The one continuation (docs/decisions/0115-one-continuation.md): every door through which a partner app signs a
// person in — the OpenID Connect interaction, the SAML request, the device approval, and the partner token's rules
// (`refuseBrokenRules`, decision 0146) — passes here, and only here are
// its checks made, in one order: the portal session and the account, the rules of the person's companies, a fresh
// sign-in the app demands, a second factor the app demands (step-up, docs/decisions/0137-step-up.md), the app's
// consent. A door reads its protocol's request and writes its protocol's answer;
// whether that answer may be given, and how the person signed in, is this file's to say.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { oidcConsents, samlConsents, type UserStatus } from '../../db/schema.js';
import { accountSuspended, HttpError } from '../../lib/errors.js';
import { refusalOnRecord } from '../audit/member-failures.js';
import type { VerifiedToken } from '../sessions/verify.js';
import { enforceCompanyRules, wayOfSession } from '../sign-in-limits/company-rules.js';
import { factorSummary, type SecondFactorMethod, secondFactorMethodsOf } from '../second-factor/status.js';
import { trustedDevicesAllowed } from '../second-factor/trusted-devices.js';
import { type acrValues, authenticationOf } from './authentication-methods.js';
import { consentNeeded, rememberedScopes } from './consents.js';
import { identityProviderMessages as M } from './messages.js';
import { signedInAt } from './portal-sessions.js';

/**
 * The portal session answering an app's sign-in: one the API verified for this request (routes' `authenticate`, which
 * read it from the database for an answer): live, of an active account, within its companies' session limits.
 */
export interface PortalSignIn {
  userId: number;
  status: UserStatus;
  sessionId: string;
  expiresAt: Date;
  /** How the session was signed in (sessions.method) and whether it proved a second factor: `amr` and `acr`. */
  method: string | null;
  /** For 'empresa': whose provider (a company's rule allows only its own, decision 0147). */
  ssoCompanyId: number | null;
  secondFactor: boolean;
  /** The client's address, as the API reads it: the company rules' networks. */
  address: string;
}

/** The portal session of a verified request, from the address the API read for it. */
export const portalSignInOf = (auth: VerifiedToken, address: string): PortalSignIn => ({
  userId: auth.user.id,
  status: auth.user.status,
  sessionId: auth.sessionId,
  expiresAt: auth.expiresAt,
  method: auth.method,
  ssoCompanyId: auth.ssoCompanyId,
  secondFactor: auth.secondFactor,
  address,
});

/** Where a connected app's consent is kept: its OpenID Connect client, or its SAML service provider. */
export type ConsentOf = { protocol: 'oidc'; clientId: string } | { protocol: 'saml'; samlAppId: number };

/** The connected app asking, as the screens name it and the continuation judges it. */
export interface AskingApp {
  /** Its id on the screens and in /perfil: the OpenID Connect client id, or `saml-<id>`. */
  id: string;
  nombre: string;
  /** The portal's own app: never asks for consent. */
  primeraParte: boolean;
  consent: ConsentOf;
}

/** One permission as the consent screen and /perfil name it. */
export interface Permission {
  scope: string;
  descripcion: string;
}

/** What an app asks of this sign-in. */
export interface SignInAsk {
  app: AskingApp;
  /**
   * The permissions asked, described as the screens list them: the scopes, or for a SAML app what its assertion
   * releases (a door describes its own).
   */
  permisos: readonly Permission[];
  /** The app asked for the consent screen itself (OpenID Connect's prompt=consent). */
  consentAsked?: boolean;
  /** A fresh sign-in the app demands: made after `after` (epoch seconds), or no older than `maxAge` seconds. */
  fresh?: { after?: number; maxAge?: number };
  /** Another address the sign-in happens from, checked against the networks too: a device's own. */
  alsoFrom?: string;
  /**
   * The app demands a second factor proved in this sign-in (OpenID Connect's `acr_values` or essential `acr` naming
   * `urn:portal:acr:2`, SAML's RequestedAuthnContext naming REFEDS MFA): a session that proved none proves one first.
   */
  secondFactor?: boolean;
}

/** What the sign-in and consent screens show before the person answers. */
export interface ContinuationView {
  cliente: { id: string; nombre: string; primeraParte: boolean };
  permisos: Permission[];
  /** A third-party app the person has not yet allowed these permissions: the page asks. */
  consentimiento: boolean;
  /** The app demands a fresh sign-in that this session does not satisfy: the page signs in again first. */
  reautenticar: boolean;
  /**
   * The app demands a second factor this session has not proved: how the person can prove one now (empty: they have
   * none yet, and the page offers to set one up); null when nothing is demanded or it is proved already.
   */
  segundoFactor: { metodos: SecondFactorMethod[]; permiteConfiarDispositivo: boolean } | null;
}

/** What the door may answer the app with, once the continuation let the sign-in through. */
export interface Passed {
  /** When the portal session was signed in (epoch seconds): `auth_time`, the AuthnInstant. */
  authTime: number;
  /** How: RFC 8176 `amr` and the portal's `acr` (authentication-methods.ts). */
  amr: string[];
  acr: (typeof acrValues)[number];
  /** The permissions the answer carries (all that were asked: the consent, when needed, covered them). */
  scopes: string[];
}

/**
 * Whether the person leaves an app's sign-in for not proving the second factor it asked for: the screens' 'Cancelar'
 * on that step sends `{ motivo: 'segundo_factor' }` (a body is optional there: a plain 'Cancelar' sends none).
 */
export const leftForSecondFactor = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && (body as { motivo?: unknown }).motivo === 'segundo_factor';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Whether the app's demand for a fresh sign-in is unmet by a session signed in at `signedIn` (epoch seconds). */
function freshSignInNeeded(fresh: SignInAsk['fresh'], signedIn: number): boolean {
  if (!fresh) return false;
  if (fresh.after !== undefined && signedIn < fresh.after) return true;
  return fresh.maxAge !== undefined && nowSeconds() - signedIn > fresh.maxAge;
}

/** Whether the app demands a second factor that this session has not proved. */
const stepUpNeeded = (ask: SignInAsk, signIn: Pick<PortalSignIn, 'secondFactor'>) =>
  ask.secondFactor === true && !signIn.secondFactor;

/** The step-up the screens show: the person's ways to prove a second factor now, or null when none is needed. */
async function stepUpOf(db: Db, ask: SignInAsk, signIn: PortalSignIn): Promise<ContinuationView['segundoFactor']> {
  if (!stepUpNeeded(ask, signIn)) return null;
  return {
    metodos: secondFactorMethodsOf(await factorSummary(db, signIn.userId)),
    // The box is offered here too, for the sign-ins after this one: this step-up is proved all the same.
    permiteConfiarDispositivo: await trustedDevicesAllowed(db, signIn.userId),
  };
}

/** The permissions the person already allowed the app (every one of them, for a SAML app they once allowed). */
async function allowedBefore(db: Db, app: AskingApp, userId: number, asked: readonly string[]): Promise<Set<string>> {
  if (app.consent.protocol === 'oidc') return rememberedScopes(db, userId, app.consent.clientId);
  const [row] = await db
    .select({ at: samlConsents.grantedAt })
    .from(samlConsents)
    .where(and(eq(samlConsents.userId, userId), eq(samlConsents.samlAppId, app.consent.samlAppId)));
  return new Set(row ? asked : []);
}

/** Remembers the person's 'Permitir': the permissions allowed before and these. */
async function rememberConsent(db: Db, app: AskingApp, userId: number, scopes: string[]): Promise<void> {
  if (app.consent.protocol === 'oidc') {
    await db
      .insert(oidcConsents)
      .values({ userId, clientId: app.consent.clientId, scopes })
      .onConflictDoUpdate({
        target: [oidcConsents.userId, oidcConsents.clientId],
        set: { scopes, grantedAt: new Date() },
      });
    return;
  }
  await db
    .insert(samlConsents)
    .values({ userId, samlAppId: app.consent.samlAppId })
    .onConflictDoUpdate({ target: [samlConsents.userId, samlConsents.samlAppId], set: { grantedAt: new Date() } });
}

const scopesOf = (ask: SignInAsk) => ask.permisos.map((permission) => permission.scope);

/** Whether the person must answer the consent screen, having allowed `before` (none: never asked yet). */
const consentPendingGiven = (ask: SignInAsk, before: Set<string>) =>
  !ask.app.primeraParte && (ask.consentAsked === true || consentNeeded(false, scopesOf(ask), before));

/** Whether the person must answer the consent screen for this ask, and what they allowed before. */
async function consentPending(
  db: Db,
  ask: SignInAsk,
  userId: number,
): Promise<{ pending: boolean; before: Set<string> }> {
  if (ask.app.primeraParte) return { pending: false, before: new Set() };
  const before = await allowedBefore(db, ask.app, userId, scopesOf(ask));
  return { pending: consentPendingGiven(ask, before), before };
}

/**
 * The checks that refuse a sign-in outright, the same for every door and every step (the screens' first read, the
 * answer, an app's silent sign-in): an account that is not active, and a rule of the person's companies that the
 * session's method or the address (and the device's, for a device) breaks: 403 USER_SUSPENDED, RED_NO_PERMITIDA,
 * METODO_NO_PERMITIDO.
 */
export async function refuseBrokenRules(
  db: Db,
  signIn: Pick<PortalSignIn, 'userId' | 'status' | 'method' | 'ssoCompanyId' | 'address'>,
  alsoFrom?: string,
): Promise<void> {
  if (signIn.status === 'suspended') throw accountSuspended();
  if (signIn.status !== 'active') throw new HttpError(403, M.accountNotActive, 'ACCOUNT_NOT_ACTIVE');
  const way = wayOfSession(signIn);
  // A refusal goes on record in the person's companies' logs (a failure their SIEM sees), then on to the door.
  const onRecord = (address: string) => (error: unknown) =>
    refusalOnRecord(db, signIn.userId, error, { address, metodo: way.method });
  await enforceCompanyRules(db, signIn.userId, way, signIn.address).catch(onRecord(signIn.address));
  if (alsoFrom !== undefined && alsoFrom !== signIn.address)
    await enforceCompanyRules(db, signIn.userId, way, alsoFrom).catch(onRecord(alsoFrom));
}

/**
 * What the screens show (GET of each door): the app, the permissions, whether the person must allow them and whether
 * the app wants a fresh sign-in first. With a session, a sign-in the rules refuse is refused here already, so the
 * person sees why before being asked anything.
 */
export async function describeContinuation(
  db: Db,
  ask: SignInAsk,
  signIn: PortalSignIn | undefined,
): Promise<ContinuationView> {
  const view = {
    cliente: { id: ask.app.id, nombre: ask.app.nombre, primeraParte: ask.app.primeraParte },
    permisos: [...ask.permisos],
  };
  if (!signIn)
    return {
      ...view,
      consentimiento: consentPendingGiven(ask, new Set()),
      reautenticar: ask.fresh !== undefined,
      segundoFactor: null,
    };
  await refuseBrokenRules(db, signIn, ask.alsoFrom);
  const { pending } = await consentPending(db, ask, signIn.userId);
  return {
    ...view,
    consentimiento: pending,
    reautenticar: freshSignInNeeded(ask.fresh, await signedInAt(db, signIn.sessionId)),
    segundoFactor: await stepUpOf(db, ask, signIn),
  };
}

/**
 * The person's answer (or the page going on without asking): every check, then the consent remembered when the person
 * gave it (`allow`). Throws the door's refusal (403 as above, 401 SIGN_IN_AGAIN, 409 STEP_UP_REQUIRED, 409
 * CONSENT_REQUIRED); answers how the person signed in, for the door to carry to the app: never a sign-in without a
 * second factor to an app that demanded one. `db` may be the door's transaction.
 */
export async function continueSignIn(db: Db, ask: SignInAsk, signIn: PortalSignIn, allow: boolean): Promise<Passed> {
  await refuseBrokenRules(db, signIn, ask.alsoFrom);
  const authTime = await signedInAt(db, signIn.sessionId);
  if (freshSignInNeeded(ask.fresh, authTime)) throw new HttpError(401, M.signInAgain, 'SIGN_IN_AGAIN');
  if (stepUpNeeded(ask, signIn)) throw new HttpError(409, M.stepUpRequired, 'STEP_UP_REQUIRED');
  const { pending, before } = await consentPending(db, ask, signIn.userId);
  if (pending) {
    if (!allow) throw new HttpError(409, M.consentRequired, 'CONSENT_REQUIRED');
    await rememberConsent(db, ask.app, signIn.userId, [...new Set([...before, ...scopesOf(ask)])]);
  }
  return { authTime, ...authenticationOf(signIn), scopes: scopesOf(ask) };
}
