// The Spanish texts of the OpenID Connect provider: clients, interactions, authorized apps.
import { quoted } from '../../lib/errors.js';
import { oidcScopes } from './scopes.js';

const fieldNames: Record<string, string> = {
  redirectUris: 'URIs de redirección',
  postLogoutRedirectUris: 'URIs tras cerrar sesión',
  backchannelLogoutUri: 'URI de cierre de sesión por canal trasero',
  initiateLoginUri: 'URI de inicio de sesión',
};

export const identityProviderMessages = {
  nameRequired: 'El nombre del cliente es requerido',
  redirectUriRequired: 'Indica al menos una URI de redirección',
  tooManyUris: (field: string, max: number) => `${fieldNames[field] ?? field}: como máximo ${max}`,
  invalidUri: (field: string, uri: string, why: string) =>
    `${fieldNames[field] ?? field}: ${quoted(uri)} no es válida (${why})`,
  uriTooLong: (max: number) => `más de ${max} caracteres`,
  notAbsoluteUri: 'debe ser una dirección completa, como https://app.example.com/callback',
  uriWithFragment: 'no puede llevar fragmento (#)',
  uriWithUserInfo: 'no puede llevar usuario ni contraseña',
  uriWithWildcard: 'no admite comodines: cada dirección se registra exacta',
  httpOnlyLoopback: 'debe usar https; http solo en 127.0.0.1, [::1] o localhost',
  httpsOnly: 'debe usar https, también en 127.0.0.1 o localhost',
  customSchemeOnlyPublic: 'un esquema propio (como betopro://) solo es para clientes públicos (apps móviles)',
  schemeNotAllowed: 'ese esquema no está permitido',
  unknownScopes: (scopes: string[]) =>
    `${scopes.length === 1 ? 'No existe el permiso' : 'No existen los permisos'} ${scopes.map(quoted).join(', ')}; ` +
    `los permisos son ${oidcScopes.join(', ')}`,
  openidRequired: 'Los permisos deben incluir openid',
  planNeedsApp: 'El permiso plan necesita una app del catálogo',
  unknownApp: (id: number) => `No existe la app ${id}`,
  unknownSubjectKind: (kind: string) =>
    `El identificador de la persona ${quoted(kind)} no existe; puede ser numerico, opaco o por_cliente`,
  appAlreadyHasClient: 'Esa app ya tiene un cliente OpenID Connect',
  clientNotFound: 'Cliente OpenID Connect no encontrado',
  connectedAppNotFound: 'Aplicación conectada no encontrada',
  publicClientHasNoSecret: 'Un cliente público no tiene secreto',
  invalidClientMetadata: 'La configuración del cliente no es válida',
  interactionNotFound:
    'La solicitud de inicio de sesión expiró o no es válida. Vuelve a la aplicación e inténtalo de nuevo.',
  consentRequired: 'Esta aplicación necesita tu permiso',
  signInAgain: 'La aplicación pide que vuelvas a iniciar sesión',
  stepUpRequired: 'Esta aplicación pide que confirmes tu identidad con tu segundo factor',
  accountNotActive: 'Tu cuenta no está activa',
  authorizedAppNotFound: 'Esa aplicación no tiene acceso a tu cuenta',
} as const;
