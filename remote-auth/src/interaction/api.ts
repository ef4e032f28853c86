import {
  API_PATHS,
  type DeviceAnswered,
  type DeviceRequest,
  type InteractionDetails,
  type InteractionRedirect,
  request,
} from '@portal/shared';

/**
 * The calls of an OpenID Connect interaction (/autorizar and /login's notice). Each carries the browser's cookies:
 * the API ties an interaction to a cookie of the browser that started it. The session's bearer token goes as on
 * every call, when there is one.
 */

export const INTERACTION_FALLBACK = {
  details: 'No se pudo cargar la solicitud de la aplicación',
  continue: 'No se pudo continuar a la aplicación',
  cancel: 'No se pudo cancelar el inicio de sesión en la aplicación',
} as const;

export function getInteractionDetails(uid: string): Promise<InteractionDetails> {
  return request('get', API_PATHS.oidc.interactionDetails(uid), {
    fallback: INTERACTION_FALLBACK.details,
    credentials: 'include',
  });
}

/** Goes on to the app; `allow` is the person's 'Permitir' for a third-party app. */
export function continueInteraction(uid: string, allow: boolean): Promise<InteractionRedirect> {
  return request('post', API_PATHS.oidc.continueInteraction(uid), {
    json: allow ? { permitir: true } : {},
    fallback: INTERACTION_FALLBACK.continue,
    credentials: 'include',
  });
}

/** The person refused (`stepUp`: did not prove the second factor the app asked for): the app is told so. */
export function cancelInteraction(uid: string, stepUp = false): Promise<InteractionRedirect> {
  return request('post', API_PATHS.oidc.cancelInteraction(uid), {
    ...(stepUp ? { json: { motivo: 'segundo_factor' } } : {}),
    fallback: INTERACTION_FALLBACK.cancel,
    credentials: 'include',
  });
}

export const DEVICE_FALLBACK = {
  lookup: 'No se pudo comprobar el código',
  answer: 'No se pudo enviar tu respuesta',
} as const;

/** /dispositivo: which app the code a device shows is for, what it asks and from where (nothing is granted). */
export function lookUpDeviceCode(codigo: string): Promise<DeviceRequest> {
  return request('post', API_PATHS.oidc.deviceLookup, { json: { codigo }, fallback: DEVICE_FALLBACK.lookup });
}

/**
 * The person's 'Permitir' (`allow`) or 'Rechazar': the device gets its tokens or access_denied; `stepUp`: the person
 * left the second factor the app asked for, and the device is told its requirements were not met.
 */
export function answerDeviceCode(codigo: string, allow: boolean, stepUp = false): Promise<DeviceAnswered> {
  return request('post', API_PATHS.oidc.deviceAnswer, {
    json: { codigo, permitir: allow, ...(stepUp ? { motivo: 'segundo_factor' as const } : {}) },
    fallback: DEVICE_FALLBACK.answer,
  });
}
