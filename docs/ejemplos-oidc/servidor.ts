// Una app de servidor (confidencial) con openid-client, una biblioteca certificada por la OpenID Foundation: entra con
// el portal por el flujo de código con PKCE, lee a la persona y su plan, renueva sus tokens y cierra sesión.
import * as oidc from 'openid-client';

/** Lee el documento de descubrimiento del portal: de ahí salen los endpoints y las claves. */
export function conectar(emisor: string, clientId: string, secreto: string, opciones: { local?: boolean } = {}) {
  return oidc.discovery(
    new URL(emisor),
    clientId,
    undefined,
    oidc.ClientSecretBasic(secreto),
    // Solo para probar contra `npm start` en esta máquina (http); en producción el portal va por https.
    opciones.local ? { execute: [oidc.allowInsecureRequests] } : undefined,
  );
}

/** Adónde mandar el navegador. Guarda `pendiente` en la sesión de la app (una cookie) hasta que vuelva. */
export async function empezarInicioDeSesion(portal: oidc.Configuration, redirectUri: string) {
  const pendiente = {
    codeVerifier: oidc.randomPKCECodeVerifier(),
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
  };
  const url = oidc.buildAuthorizationUrl(portal, {
    redirect_uri: redirectUri,
    // offline_access da un token de actualización; OpenID Connect lo pide junto con prompt=consent.
    scope: 'openid profile email plan offline_access',
    prompt: 'consent',
    code_challenge: await oidc.calculatePKCECodeChallenge(pendiente.codeVerifier),
    code_challenge_method: 'S256',
    state: pendiente.state,
    nonce: pendiente.nonce,
  });
  return { url: url.href, pendiente };
}

/** El navegador volvió a redirectUri: el código se cambia por tokens y el token de ID dice quién es y su plan. */
export async function terminarInicioDeSesion(
  portal: oidc.Configuration,
  urlActual: string,
  pendiente: { codeVerifier: string; state: string; nonce: string },
) {
  const tokens = await oidc.authorizationCodeGrant(portal, new URL(urlActual), {
    pkceCodeVerifier: pendiente.codeVerifier,
    expectedState: pendiente.state,
    expectedNonce: pendiente.nonce,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error('la respuesta no trae token de ID');
  return {
    tokens,
    persona: { id: claims.sub, email: claims.email, nombre: claims.name, plan: claims.plan, sesion: claims.sid },
  };
}

/** Tokens nuevos; el de actualización cambia en cada uso: guarda siempre el último. */
export function renovar(portal: oidc.Configuration, tokenDeActualizacion: string) {
  return oidc.refreshTokenGrant(portal, tokenDeActualizacion);
}

/** Cerrar sesión también en el portal: manda el navegador aquí. */
export function urlDeCierre(portal: oidc.Configuration, tokenDeId: string, volverA: string): string {
  return oidc.buildEndSessionUrl(portal, { id_token_hint: tokenDeId, post_logout_redirect_uri: volverA }).href;
}
