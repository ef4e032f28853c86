// Cierre de sesión por canal trasero (OpenID Connect Back-Channel Logout 1.0): el portal hace POST a la
// backchannelLogoutUri de la app cuando la persona cierra sesión, cambia su contraseña o la suspenden. La app comprueba
// el token de cierre con las claves públicas del portal y cierra sus sesiones con ese `sid`.
import { createRemoteJWKSet, jwtVerify } from 'jose';

const evento = 'http://schemas.openid.net/event/backchannel-logout';

export function receptorDeCierre(emisor: string, clientId: string) {
  const claves = createRemoteJWKSet(new URL(`${emisor}/.well-known/jwks.json`));
  /** Recibe el cuerpo del POST (application/x-www-form-urlencoded); responde a quién y qué sesión cerrar. */
  return async (cuerpo: string): Promise<{ persona: string; sesion: string }> => {
    const token = new URLSearchParams(cuerpo).get('logout_token') ?? '';
    const { payload } = await jwtVerify(token, claves, {
      issuer: emisor,
      audience: clientId,
      typ: 'logout+jwt',
      maxTokenAge: '5m',
    });
    const eventos = payload.events as Record<string, unknown> | undefined;
    if (!eventos?.[evento] || 'nonce' in payload || typeof payload.sid !== 'string') {
      throw new Error('no es un token de cierre de sesión');
    }
    // Responde 200 cuando hayas cerrado las sesiones de la app con este sid (el portal reintenta si no).
    return { persona: String(payload.sub), sesion: payload.sid };
  };
}
