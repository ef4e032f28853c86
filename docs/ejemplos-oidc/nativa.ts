// Una app nativa (las apps móviles con su esquema propio, betopro:// o controlmax://; el software de escritorio con
// una dirección de loopback en un puerto elegido al momento): cliente público, el navegador del sistema y PKCE
// (RFC 8252). Aquí con oidc-client-ts; en Android e iOS, AppAuth hace lo mismo con los mismos valores.
import { InMemoryWebStorage, OidcClient, WebStorageStateStore } from 'oidc-client-ts';

export function appNativa(emisor: string, clientId: string, redirectUri: string) {
  return new OidcClient({
    authority: emisor,
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'openid profile plan offline_access',
    // La app guarda el estado del inicio de sesión en curso (aquí en memoria).
    stateStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
  });
}

/** La dirección que la app abre en el navegador del sistema. */
export async function abrirInicioDeSesion(app: OidcClient): Promise<string> {
  return (await app.createSigninRequest({ prompt: 'consent' })).url;
}

/** El sistema devuelve a la app su dirección de vuelta (betopro://auth/callback?code=…): tokens y persona. */
export async function recibirVuelta(app: OidcClient, direccion: string) {
  const respuesta = await app.processSigninResponse(direccion);
  return {
    persona: { id: respuesta.profile.sub, plan: respuesta.profile.plan },
    tokenDeActualizacion: respuesta.refresh_token,
    tokenDeAcceso: respuesta.access_token,
  };
}
