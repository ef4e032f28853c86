import { APP_LINK_LABELS, type OidcScope } from '@portal/shared';
import { TEXT_ADMIN } from '../../texts';

/** The apps page (spec §2: 'Pagina de apps' is where this belongs): the catalogue and the connected partner apps. */
export const TEXT_APPS = {
  appsTitle: 'Pagina de apps',
  appsPageSize: 'Aplicaciones por página',
  newApp: 'Nueva aplicación',
  description: 'Descripción',
  longDescription: 'Descripción larga',
  iconUrl: 'URL del icono',
  // The link labels live beside their rules (the API's messages name them): @portal/shared apps/links.
  webUrl: APP_LINK_LABELS.webUrl,
  iosUrl: APP_LINK_LABELS.iosUrl,
  androidUrl: APP_LINK_LABELS.androidUrl,
  enabledWeb: 'Habilitada en web',
  enabledMobile: 'Habilitada en móvil',
  tags: 'Etiquetas (separadas por comas)',
  web: 'Web',
  mobile: 'Móvil',
  yes: 'Sí',
  no: 'No',
  nameRequired: 'El nombre es requerido',
  appCreated: 'Aplicación agregada',
  appUpdated: 'Aplicación actualizada',
  editApp: (nombre: string) => `Editar ${nombre}`,

  // The partner apps that sign in with the portal, by either protocol, in one list (docs/decisions/0123-connected-apps-and-one-sign-in-form.md).
  connectedApps: 'Aplicaciones conectadas',
  connectedAppsIntro:
    'Las aplicaciones que inician sesión con la cuenta del portal, por OpenID Connect o por SAML 2.0 (con el portal como proveedor de identidad).',
  connectApp: 'Conectar aplicación',
  loadingConnectedApps: 'Cargando aplicaciones conectadas...',
  noConnectedApps: 'No hay aplicaciones conectadas.',
  protocol: 'Protocolo',
  protocolNames: { oidc: 'OpenID Connect', saml: 'SAML 2.0' },

  // OpenID Connect clients (docs/decisions/0056-openid-connect-screens.md).
  editOidcClient: (nombre: string) => `Editar cliente ${nombre}`,
  confidential: 'Confidencial',
  public: 'Público',
  firstParty: 'Primera parte',
  thirdParty: 'Tercera parte',
  clientId: 'ID de cliente',
  clientType: 'Tipo',
  linkedApp: 'App del catálogo',
  noLinkedApp: 'Ninguna',
  redirectUris: 'URIs de redirección',
  postLogoutRedirectUris: 'URIs tras cerrar sesión',
  backchannelLogoutUri: 'URI de cierre de sesión por canal trasero',
  initiateLoginUri: 'URI de inicio de sesión iniciado por terceros',
  scopes: 'Permisos',
  onePerLine: 'Una por línea.',
  initiateLoginHint:
    'Si la tiene, «Abrir» en Aplicaciones lleva a esta dirección y la app inicia sesión con el portal.',
  typeFixed: 'El tipo no se puede cambiar después de crear el cliente.',
  firstPartyHint: 'Las aplicaciones de primera parte no piden permiso a la persona.',
  subjectKind: 'Identificador de la persona',
  subjectKinds: {
    opaco: 'Opaco',
    por_cliente: 'Distinto en cada app',
    numerico: 'Número de cuenta',
  },
  subjectKindHints: {
    opaco: 'Un código aleatorio de la cuenta, el mismo en todas las apps con esta opción.',
    por_cliente: 'Un código que solo esta app conoce: dos apps no pueden cruzar a sus personas.',
    numerico: 'El número de la cuenta en el portal; lo conservan las apps registradas antes de esta opción.',
  },
  subjectKindChanged:
    'Al guardar, la app recibirá identificadores nuevos para todas las personas y dejará de reconocer a quienes ya ' +
    'tenía guardados.',
  redirectUrisRequired: 'Escribe al menos una URI de redirección',
  deviceFlow: 'Inicio de sesión en dispositivos',
  deviceFlowHint:
    'Un aparato sin teclado ni navegador (un panel de planta, un quiosco, una herramienta de línea de comandos) ' +
    'muestra un código que la persona confirma en /dispositivo.',
  redirectUrisOptional: 'Una por línea. Un cliente público que solo inicia sesión en dispositivos no necesita ninguna.',
  // Every scope the API knows, in the order the client form lists them (oidc-client-form.ts OIDC_SCOPES).
  scopeLabels: {
    openid: 'Identidad (openid, siempre)',
    profile: 'Nombre y apellido (profile)',
    email: 'Email (email)',
    phone: 'Teléfono (phone)',
    offline_access: 'Acceso sin conexión (offline_access)',
    plan: 'Plan en la app del catálogo (plan)',
    roles: 'Roles en la app del catálogo (roles)',
    organization: 'Empresas y roles (organization)',
  } satisfies Record<OidcScope, string>,
  planNeedsApp: 'El permiso plan solo tiene sentido con una app del catálogo.',
  unlistedScopes: (scopes: string) => `También tiene: ${scopes} (se conservan al guardar).`,
  rotateSecret: 'Rotar secreto',
  rotateSecretOf: (nombre: string) => `Rotar secreto de ${nombre}`,
  confirmRotateTitle: (nombre: string) => `¿Rotar el secreto de ${nombre}?`,
  confirmRotate:
    'El secreto actual dejará de funcionar en ese momento: la aplicación no podrá iniciar sesión hasta que configures el nuevo.',
  deleteClient: 'Eliminar',
  deleteClientOf: (nombre: string) => `Eliminar cliente ${nombre}`,
  confirmDeleteTitle: (nombre: string) => `¿Eliminar el cliente ${nombre}?`,
  confirmDelete: 'La aplicación dejará de poder iniciar sesión con el portal. No se puede deshacer.',
  clientCreated: 'Cliente creado',
  clientUpdated: 'Cliente actualizado',
  clientDeleted: 'Cliente eliminado',
  secretRotated: 'Secreto rotado',
  secretTitle: (nombre: string) => `Secreto de ${nombre}`,
  clientSecret: 'Secreto del cliente',
  secretOnce: 'Copia el secreto ahora: no se volverá a mostrar.',
  copy: TEXT_ADMIN.copy,
  copied: 'Secreto copiado',
  copyFailed: TEXT_ADMIN.copyFailed,

  // SAML apps (docs/decisions/0101-saml-admin-panel.md).
  idpMetadata: 'Metadatos del portal (IdP)',
  idpMetadataHint:
    'Da esta dirección a la aplicación: en ella están el identificador del portal, sus direcciones de inicio de sesión y su certificado de firma.',
  copyIdpMetadata: 'Copiar metadatos del portal',
  editSamlApp: (nombre: string) => `Editar aplicación SAML ${nombre}`,
  samlMetadata: 'Metadatos de la aplicación (XML)',
  samlMetadataHint: 'Pega el XML de metadatos del proveedor de servicio (SP) de la aplicación, o carga su archivo.',
  samlMetadataKept: 'Vacío: se mantienen los metadatos guardados.',
  samlMetadataRequired: 'Pega o carga los metadatos de la aplicación (XML)',
  portalApp: 'Aplicación del portal',
  portalAppHint: 'Con una aplicación, la respuesta lleva el plan de la persona en ella (atributo plan).',
  entityId: 'Identificador (Entity ID)',
  acsUrls: 'URLs de respuesta (ACS)',
  logoutUrl: 'Cierre de sesión (SLO)',
  noLogoutUrl: 'La aplicación no publica cierre de sesión',
  noSoapLogout: 'No publica el cierre SOAP: lo lleva el navegador al cerrar sesión en el portal',
  browserLogoutUrl: 'Cierre de sesión por el navegador (HTTP-Redirect)',
  nameIdFormat: 'Formato del NameID',
  nameIdFormats: {
    persistent: 'Persistente (opaco, distinto en cada aplicación)',
    emailAddress: 'Email',
  },
  pendingLogouts: (n: number) =>
    n === 1
      ? 'Un cierre de sesión no llegó a la aplicación: se reintenta solo.'
      : `${n} cierres de sesión no llegaron a la aplicación: se reintentan solos.`,
  lastLogoutError: (error: string) => `Último error al cerrar sesión: ${error}`,
  deleteSamlAppOf: (nombre: string) => `Eliminar aplicación SAML ${nombre}`,
  confirmDeleteSamlTitle: (nombre: string) => `¿Eliminar la aplicación SAML ${nombre}?`,
  confirmDeleteSaml: 'La aplicación dejará de poder iniciar sesión con el portal. No se puede deshacer.',
  samlAppCreated: 'Aplicación SAML creada',
  samlAppUpdated: 'Aplicación SAML actualizada',
  samlAppDeleted: 'Aplicación SAML eliminada',
} as const;
