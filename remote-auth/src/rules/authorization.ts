import { ApiError, type InteractionDetails, SIGN_IN_AGAIN_CODE } from '@portal/shared';

/**
 * The rules of an OpenID Connect sign-in in the portal's screens (/autorizar, /autorizar/error; decision 0056): what
 * the page does once it knows the interaction and the session, what a refused call means, and the fixed texts of the
 * problems. No text is ever taken from the address.
 */

/** Why an app's sign-in cannot go on: the API's `motivo` on /autorizar/error, and the page's own two cases. */
export type AuthorizeProblem =
  | 'cliente_desconocido'
  | 'redireccion_no_registrada'
  | 'solicitud_invalida'
  | 'solicitud_expirada'
  | 'error_servidor';

export const AUTHORIZE_PROBLEM_TITLE = 'No se pudo iniciar sesión en la aplicación';

export const AUTHORIZE_PROBLEMS: Readonly<Record<AuthorizeProblem, string>> = {
  cliente_desconocido: 'La aplicación que te envió aquí no está registrada en el portal.',
  redireccion_no_registrada:
    'La dirección a la que la aplicación pidió volver no está registrada en el portal. Por seguridad no te enviamos allí.',
  solicitud_invalida: 'La solicitud de la aplicación no es válida.',
  solicitud_expirada:
    'La solicitud de inicio de sesión expiró o no es válida. Vuelve a la aplicación e inténtalo de nuevo.',
  error_servidor: 'Ocurrió un error en el portal. Inténtalo de nuevo más tarde.',
};

/** The problem a `motivo` names; anything else (missing, unknown, made up) is an invalid request. */
export function problemOf(motivo: string | null): AuthorizeProblem {
  return motivo !== null && Object.hasOwn(AUTHORIZE_PROBLEMS, motivo)
    ? (motivo as AuthorizeProblem)
    : 'solicitud_invalida';
}

/**
 * What /autorizar does next: sign in first (nobody is signed in, or the app asked for a fresh sign-in), prove a
 * second factor the app asked for (step-up), ask the person (a third-party app not yet allowed for these
 * permissions), or go on to the app at once.
 */
export type AuthorizationStep = 'sign-in' | 'second-factor' | 'consent' | 'continue';

export function authorizationStep(
  details: Pick<InteractionDetails, 'consentimiento' | 'reautenticar' | 'segundoFactor'>,
  signedIn: boolean,
): AuthorizationStep {
  if (!signedIn || details.reautenticar) return 'sign-in';
  if (details.segundoFactor) return 'second-factor';
  return details.consentimiento ? 'consent' : 'continue';
}

/**
 * What a refused interaction call means for the page:
 * - `expired`: the API does not know the interaction (expired, unknown, or started in another browser);
 * - `consent`: the app is not yet allowed (the page asks);
 * - `sign-in-again`: the app wants a fresh sign-in;
 * - `second-factor`: the app wants a second factor this session has not proved (the page reads the request again);
 * - `session-ended`: any other 401; the API client already ended the session and is loading /login;
 * - `refused`: the portal will not sign the person in to the app (a rule of their company: the network, the way they
 *   signed in): the API's reason is shown, and the way back to the app;
 * - `other`: a failure to show, with its message.
 */
export type Refusal = 'expired' | 'consent' | 'sign-in-again' | 'second-factor' | 'session-ended' | 'refused' | 'other';

/** The API's codes of a sign-in its continuation refuses (decision 0115). */
const REFUSED_CODES = new Set(['RED_NO_PERMITIDA', 'METODO_NO_PERMITIDO', 'ACCOUNT_NOT_ACTIVE']);

export function refusalOf(error: unknown): Refusal {
  if (!(error instanceof ApiError)) return 'other';
  if (error.code === 'INTERACTION_NOT_FOUND' || error.status === 404) return 'expired';
  if (error.code === 'CONSENT_REQUIRED') return 'consent';
  if (error.code === 'STEP_UP_REQUIRED') return 'second-factor';
  if (error.status === 401) return error.code === SIGN_IN_AGAIN_CODE ? 'sign-in-again' : 'session-ended';
  if (error.status === 403 && REFUSED_CODES.has(error.code ?? '')) return 'refused';
  return 'other';
}

/** The API's `redirectTo` is followed only as an http(s) address: never a `javascript:` or other scheme. */
export function isFollowableRedirect(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
