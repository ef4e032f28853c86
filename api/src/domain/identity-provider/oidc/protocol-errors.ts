// The provider's errors, the portal's way: the protocol's JSON errors keep their `error` code and carry a Spanish
// message too, and an error it cannot send back to the app lands on the portal's error page.
import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { errorPageUrl } from './endpoints.js';

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
  unmet_authentication_requirements: 'La persona no confirmó su identidad con el segundo factor que pide la aplicación',
};

export function protocolErrorMessage(code: string): string {
  return Object.hasOwn(protocolErrors, code) ? (protocolErrors[code] as string) : 'La solicitud no es válida';
}

/**
 * What an app is told when the person refused its sign-in: `access_denied`; or, when the app demanded a second factor
 * the person did not prove (`unmetSecondFactor`), `unmet_authentication_requirements` (OpenID Connect Core 1.0
 * §3.1.2.6). The same for a browser's interaction and a device's code.
 */
export function personRefused(unmetSecondFactor: boolean): { error: string; description: string } {
  return unmetSecondFactor
    ? {
        error: 'unmet_authentication_requirements',
        description: 'the requested authentication context (a second factor) was not met',
      }
    : { error: 'access_denied', description: 'End-User aborted interaction' };
}

/**
 * The protocol's JSON errors keep their `error` code (what the apps' libraries read) and also carry the API's
 * `statusCode` and a Spanish `message`, as every other answer of the API does.
 */
export function spanishProtocolErrors(provider: Provider): void {
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { error?: unknown } | undefined;
    if (ctx.status >= 400 && body && typeof body === 'object' && typeof body.error === 'string') {
      ctx.body = { statusCode: ctx.status, message: protocolErrorMessage(body.error), ...body };
    }
  });
}

/** The library's `renderError`: the browser goes to the portal's error page with a fixed reason. */
export function errorRenderer(portalUrl: string): Configuration['renderError'] {
  return async (ctx, out, error) => {
    ctx.status = 303;
    ctx.redirect(errorPageUrl(portalUrl, errorReason(ctx, out, error)));
  };
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
