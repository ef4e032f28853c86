/**
 * An OpenID Connect interaction this tab is in the middle of: an app sent the browser to /autorizar, and the person
 * must sign in first. The tab keeps the interaction's id while they do (however they do it: password, registration,
 * Google or Apple, passkey, second step), and the one landing decision (sign-in-landing.ts) brings them back to
 * /autorizar to finish it.
 */

/** The portal page of an interaction, where the API sends the browser: `/autorizar?interaccion=<uid>`. */
export const AUTHORIZE_PATH = '/autorizar';
export const INTERACTION_PARAM = 'interaccion';
/** /login's flag that the app asked for a fresh sign-in: the form shows even to a signed-in person. */
export const FRESH_SIGN_IN_PARAM = 'reautenticar';

/** Where this tab keeps the interaction (sessionStorage: this tab only, gone with it). */
export const PENDING_INTERACTION_KEY = 'portal-oidc-interaction';

/**
 * How long a kept interaction is worth coming back to: oidc-provider forgets an interaction after an hour by default,
 * and /autorizar would then only say it expired.
 */
export const PENDING_INTERACTION_TTL_MS = 60 * 60 * 1000;

// The API's interaction ids are URL-safe random strings (21 to 43 characters); some room either side.
const INTERACTION_UID = /^[A-Za-z0-9_-]{16,64}$/;

/** Whether `value` can be an interaction's id: anything else is never sent to the API nor put in an address. */
export function isInteractionUid(value: string | null | undefined): value is string {
  return typeof value === 'string' && INTERACTION_UID.test(value);
}

/** /autorizar for this interaction. */
export function authorizePath(uid: string): string {
  return `${AUTHORIZE_PATH}?${INTERACTION_PARAM}=${encodeURIComponent(uid)}`;
}

/** /login for this interaction; `freshSignIn` when the app asked for one (the form shows even to a signed-in person). */
export function interactionLoginPath(uid: string, freshSignIn: boolean): string {
  const fresh = freshSignIn ? `&${FRESH_SIGN_IN_PARAM}=1` : '';
  return `/login?${INTERACTION_PARAM}=${encodeURIComponent(uid)}${fresh}`;
}

/** The page of a SAML sign-in waiting for the person: `/saml/continuar?solicitud=<id>`. */
export const SAML_CONTINUE_PATH = '/saml/continuar';
export const SAML_REQUEST_PARAM = 'solicitud';

// The API's SAML request ids: 24 random bytes in base64url.
const SAML_REQUEST_ID = /^[A-Za-z0-9_-]{32}$/;

/** Whether `value` can be a SAML request's id: anything else is never sent to the API. */
export function isSamlRequestId(value: string | null | undefined): value is string {
  return typeof value === 'string' && SAML_REQUEST_ID.test(value);
}

/**
 * /login for a SAML request (kept as the page to come back to); `freshSignIn` when the app asked for one (SAML's
 * ForceAuthn: the form shows even to a signed-in person).
 */
export function samlLoginPath(id: string, freshSignIn: boolean): string {
  return freshSignIn ? `/login?${SAML_REQUEST_PARAM}=${encodeURIComponent(id)}&${FRESH_SIGN_IN_PARAM}=1` : '/login';
}

/**
 * Whether an address asks for a fresh sign-in for an interaction or a SAML request (host/src/guards/access.ts lets
 * the form show).
 */
export function asksFreshSignIn(params: URLSearchParams): boolean {
  if (params.get(FRESH_SIGN_IN_PARAM) !== '1') return false;
  return isInteractionUid(params.get(INTERACTION_PARAM)) || isSamlRequestId(params.get(SAML_REQUEST_PARAM));
}

interface Kept {
  uid: string;
  at: number;
  /** The app asked for a fresh sign-in: the Google/Apple return may replace this tab's session (see below). */
  fresh: boolean;
}

/** Keeps the interaction for this tab's next sign-in; `freshSignIn` when the app asked for one. */
export function storePendingInteraction(uid: string, freshSignIn = false, now: number = Date.now()): void {
  if (!isInteractionUid(uid)) return;
  try {
    sessionStorage.setItem(
      PENDING_INTERACTION_KEY,
      JSON.stringify({ uid, at: now, fresh: freshSignIn } satisfies Kept),
    );
  } catch {
    // No storage (a locked-down browser): the person lands as after any sign-in and goes back to the app by hand.
  }
}

function readKept(now: number): Kept | null {
  let raw: string | null;
  try {
    raw = sessionStorage.getItem(PENDING_INTERACTION_KEY);
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const kept = JSON.parse(raw) as Partial<Kept>;
    const fresh = typeof kept.at === 'number' && now - kept.at >= 0 && now - kept.at < PENDING_INTERACTION_TTL_MS;
    return fresh && isInteractionUid(kept.uid)
      ? { uid: kept.uid, at: kept.at as number, fresh: kept.fresh === true }
      : null;
  } catch {
    return null;
  }
}

/**
 * Whether this tab is signing in again because an app asked for a fresh sign-in. The Google/Apple return of such a
 * sign-in, started in this tab (its secret here), replaces the session the tab holds; any other return leaves a
 * signed-in tab's session as it is (docs/decisions/0001-session-from-bound-sign-in-return.md).
 */
export function isFreshSignInPending(now: number = Date.now()): boolean {
  return readKept(now)?.fresh === true;
}

/** Forgets the interaction: it ended (the app has its answer) or the API no longer knows it. */
export function clearPendingInteraction(): void {
  try {
    sessionStorage.removeItem(PENDING_INTERACTION_KEY);
  } catch {
    // Nothing kept, nothing to forget.
  }
}

/** The interaction this tab kept, removed as it is read (like the pending redirect); null if none or too old. */
export function takePendingInteraction(now: number = Date.now()): string | null {
  const kept = readKept(now);
  clearPendingInteraction();
  return kept?.uid ?? null;
}
