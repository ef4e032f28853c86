import { API_PATHS, type InteractionDetails, type InteractionRedirect, request } from '@portal/shared';

export { isSamlRequestId, SAML_CONTINUE_PATH, SAML_REQUEST_PARAM } from '@portal/shared';

/**
 * The calls of a partner app's SAML sign-in (/saml/continuar, decision 0100): the pending request the API keeps, read
 * and answered with the session's bearer token. The answer is a one-time address of the API, whose page posts the
 * signed response to the app (the portal's own pages may not post to another site).
 */

export const SAML_FALLBACK = {
  details: 'No se pudo cargar la solicitud de la aplicación',
  continue: 'No se pudo continuar a la aplicación',
  cancel: 'No se pudo cancelar el inicio de sesión en la aplicación',
} as const;

/** Which app asks, what it will receive, and whether the person must allow it. */
export function getSamlRequest(id: string): Promise<InteractionDetails> {
  return request('get', API_PATHS.saml.request(id), { fallback: SAML_FALLBACK.details });
}

/** Goes on to the app; `allow` is the person's 'Permitir'. */
export function continueSamlRequest(id: string, allow: boolean): Promise<InteractionRedirect> {
  return request('post', API_PATHS.saml.continueRequest(id), {
    json: allow ? { permitir: true } : {},
    fallback: SAML_FALLBACK.continue,
  });
}

/** The person refused: the app is told so. */
export function cancelSamlRequest(id: string, stepUp = false): Promise<InteractionRedirect> {
  return request('post', API_PATHS.saml.cancelRequest(id), {
    ...(stepUp ? { json: { motivo: 'segundo_factor' } } : {}),
    fallback: SAML_FALLBACK.cancel,
  });
}
