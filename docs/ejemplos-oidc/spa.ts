// Una app de una sola página (cliente público): oidc-client-ts en el navegador, flujo de código con PKCE, sin secreto.
// La redirect URI y el origen de la app se registran en el portal; el portal responde CORS solo a ese origen.
import { UserManager } from 'oidc-client-ts';

export function portal(emisor: string, clientId: string, origenDeLaApp: string) {
  return new UserManager({
    authority: emisor,
    client_id: clientId,
    redirect_uri: `${origenDeLaApp}/callback`,
    post_logout_redirect_uri: `${origenDeLaApp}/`,
    scope: 'openid profile email plan',
  });
}

/** 'Entrar con el portal': el navegador va al portal y vuelve a /callback. */
export const entrar = (usuario: UserManager) => usuario.signinRedirect();

/** En /callback: la persona, su email y su plan en esta app, del token de ID. */
export async function alVolver(usuario: UserManager) {
  const sesion = await usuario.signinRedirectCallback();
  return { email: sesion.profile.email, nombre: sesion.profile.name, plan: sesion.profile.plan };
}

/** 'Salir': cierra la sesión de la app y la del portal en este navegador. */
export const salir = (usuario: UserManager) => usuario.signoutRedirect();
