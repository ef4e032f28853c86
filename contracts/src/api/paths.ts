/** Every API path of spec §7, in one place. */
export const API_PATHS = {
  auth: {
    register: 'auth/register',
    verifyRegistration: 'auth/verify-registration',
    resendVerification: 'auth/resend-verification',
    forgotPassword: 'auth/forgot-password',
    changePassword: 'auth/change-password',
    login: 'auth/login',
    logout: 'auth/logout',
    currentUser: 'auth/user',
    /** The token a partner app receives (not in the spec). */
    partnerToken: 'auth/partner-token',
    /** Where the browser goes to start a Google or Apple sign-in (a navigation, not a fetch). */
    google: 'auth/google',
    apple: 'auth/apple',
    /** The Google/Apple return's one-time code, redeemed by the tab that started (docs/decisions/0001). */
    signInReturn: 'auth/social/canjear',
    /** Which of Google and Apple this deployment has configured (docs/decisions/0072). */
    socialProviders: 'auth/social/proveedores',
    changeStatus: (id: number) => `auth/cambiar-estado/${id}`,
    edit: (id: number) => `auth/editar/${id}`,
    updatePresentation: 'auth/update-presentacion',
    updateUser: 'auth/update-user',
    checkEmail: 'auth/verificar-email',
    updatePassword: 'auth/update-password',
    /** The signed-in person's sessions. */
    sessions: 'auth/sessions',
    session: (id: string) => `auth/sessions/${encodeURIComponent(id)}`,
    endOtherSessions: 'auth/sessions/cerrar-otras',
    /** The second step of a password sign-in (a TOTP or recovery code with the ticket). */
    secondStep: 'auth/login/segundo-paso',
    /** What the 'Seguridad' tab and the admin gate show. */
    security: 'auth/seguridad',
    /** The TOTP authenticator (POST starts, DELETE removes) and its confirmation. */
    totp: 'auth/totp',
    confirmTotp: 'auth/totp/confirmar',
    recoveryCodes: 'auth/codigos-recuperacion',
    /** Passkeys (GET lists, POST adds), one passkey (DELETE), and the two ceremonies' options. */
    passkeys: 'auth/passkeys',
    passkey: (id: string) => `auth/passkeys/${encodeURIComponent(id)}`,
    passkeyRegistrationOptions: 'auth/passkeys/opciones-registro',
    passkeySignInOptions: 'auth/passkeys/opciones-inicio',
    passkeySignIn: 'auth/passkeys/iniciar-sesion',
    /** This session proves a second factor an app asked for (step-up): a code, or a passkey's options and answer. */
    proveSecondFactor: 'auth/segundo-factor/verificar',
    proveSecondFactorPasskeyOptions: 'auth/segundo-factor/opciones-llave',
    proveSecondFactorPasskey: 'auth/segundo-factor/verificar-llave',
    /** 'Seguridad''s trusted devices (GET lists, DELETE removes all) and one of them (DELETE). */
    trustedDevices: 'auth/dispositivos-confiables',
    trustedDevice: (id: number) => `auth/dispositivos-confiables/${id}`,
    /** The third-party apps the person allowed through the portal's OpenID Connect provider (GET), one of them (DELETE). */
    authorizedApps: 'auth/aplicaciones',
    /** The rules of the signed-in person's companies that bind their sign-in and sessions. */
    myCompanyRules: 'auth/reglas-empresa',
    authorizedApp: (clientId: string) => `auth/aplicaciones/${encodeURIComponent(clientId)}`,
    /** Which company's own sign-in answers for an address's domain (docs/decisions/0080-company-sign-in.md). */
    companyAccess: 'auth/empresa/acceso',
    /** Where the browser goes to sign in through the company's provider (a navigation, not a fetch). */
    companySignIn: 'auth/empresa',
    /** Links the signed-in account to the company's provider after the company sign-in asked for proof of both sides. */
    companyLink: 'auth/empresa/vincular',
  },
  /**
   * An OpenID Connect interaction (the portal's /autorizar): what the app asks, then go on or refuse. Sent with the
   * browser's cookies: the API ties each interaction to a cookie of the browser that started it.
   */
  oidc: {
    interactionDetails: (uid: string) => `oidc/interaccion/${encodeURIComponent(uid)}/detalles`,
    continueInteraction: (uid: string) => `oidc/interaccion/${encodeURIComponent(uid)}/continuar`,
    cancelInteraction: (uid: string) => `oidc/interaccion/${encodeURIComponent(uid)}/cancelar`,
    /** /dispositivo: the request behind a code a device shows, and the person's answer to it. */
    deviceLookup: 'oidc/dispositivo/consultar',
    deviceAnswer: 'oidc/dispositivo/confirmar',
  },
  users: {
    list: 'user/listar',
    verifyEmails: 'user/verify-emails',
    stats: 'user/stats',
  },
  apps: {
    register: 'apps/register',
    list: 'apps/listar',
    update: (id: number) => `apps/update/${id}`,
    byId: (id: number) => `apps/obtener-por-id/${id}`,
    withPlans: 'apps/listar-con-planes',
  },
  /** Admin calls the spec does not name (README: decisions). */
  admin: {
    dashboard: 'admin/dashboard',
    auditLog: 'admin/auditoria',
    /** A user's sessions. */
    userSessions: (id: number) => `admin/users/${id}/sessions`,
    userSession: (id: number, sessionId: string) => `admin/users/${id}/sessions/${encodeURIComponent(sessionId)}`,
    /** The OpenID Connect clients (list, create), one client (read, replace, delete) and its secret's rotation. */
    oidcClients: 'admin/clientes-oidc',
    oidcClient: (clientId: string) => `admin/clientes-oidc/${encodeURIComponent(clientId)}`,
    oidcClientSecret: (clientId: string) => `admin/clientes-oidc/${encodeURIComponent(clientId)}/secreto`,
    /** The connected apps, whatever their protocol (docs/decisions/0126-connected-apps.md). */
    connectedApps: 'admin/aplicaciones-conectadas',
    /**
     * A connected app's event subscriptions (list, create), one subscription (delete) and its secret's rotation, its
     * recent deliveries and 'Reenviar' of one (docs/decisions/0085-partner-events.md, 0087-partner-events-panel.md),
     * by the app's registry id (`idAplicacion`), whatever its protocol.
     */
    appSubscriptions: (appId: number) => `admin/aplicaciones-conectadas/${appId}/suscripciones`,
    appSubscription: (appId: number, id: string) =>
      `admin/aplicaciones-conectadas/${appId}/suscripciones/${encodeURIComponent(id)}`,
    appSubscriptionSecret: (appId: number, id: string) =>
      `admin/aplicaciones-conectadas/${appId}/suscripciones/${encodeURIComponent(id)}/secreto`,
    appSubscriptionDeliveries: (appId: number, id: string) =>
      `admin/aplicaciones-conectadas/${appId}/suscripciones/${encodeURIComponent(id)}/entregas`,
    appDeliveryResend: (appId: number, id: string, deliveryId: number) =>
      `admin/aplicaciones-conectadas/${appId}/suscripciones/${encodeURIComponent(id)}/entregas/${deliveryId}/reenviar`,
    /** The partner apps that sign in with the portal as their SAML identity provider (list, create), and one of them. */
    samlApps: 'admin/aplicaciones-saml',
    samlApp: (id: number) => `admin/aplicaciones-saml/${id}`,
    /** A catalogue app's roles (list, create) and one of them (rename, make default, delete): decision 0134. */
    appRoles: (appId: number) => `admin/apps/${appId}/roles`,
    appRole: (appId: number, clave: string) => `admin/apps/${appId}/roles/${encodeURIComponent(clave)}`,
  },
  /**
   * The portal as a SAML identity provider: its metadata, for partner apps to trust (on the API's public address), and
   * the calls of /saml/continuar on a partner app's pending sign-in (read it, go on to the app, or refuse).
   */
  saml: {
    idpMetadata: 'saml/idp/metadata',
    request: (id: string) => `saml/idp/solicitudes/${encodeURIComponent(id)}`,
    continueRequest: (id: string) => `saml/idp/solicitudes/${encodeURIComponent(id)}/continuar`,
    cancelRequest: (id: string) => `saml/idp/solicitudes/${encodeURIComponent(id)}/cancelar`,
  },
  /**
   * Companies: the platform administrators' calls under admin/empresas (list and create, rename or suspend, sell and
   * change a licence), and a company's own under empresas/:id (its owners' and administrators', which platform
   * administrators may call too).
   */
  companies: {
    list: 'admin/empresas',
    platformCompany: (id: number) => `admin/empresas/${id}`,
    sellLicence: (id: number) => `admin/empresas/${id}/licencias`,
    changeLicence: (id: number, appId: number) => `admin/empresas/${id}/licencias/${appId}`,
    company: (id: number) => `empresas/${id}`,
    settings: (id: number) => `empresas/${id}/ajustes`,
    licences: (id: number) => `empresas/${id}/licencias`,
    members: (id: number) => `empresas/${id}/miembros`,
    member: (id: number, userId: number) => `empresas/${id}/miembros/${userId}`,
    approve: (id: number, userId: number) => `empresas/${id}/miembros/${userId}/aprobar`,
    seats: (id: number) => `empresas/${id}/puestos`,
    seat: (id: number, userId: number, appId: number) => `empresas/${id}/puestos/${userId}/${appId}`,
    /** The roles of the apps of the company's licences: the ones it may give (by hand or by a directory group). */
    appRoles: (id: number) => `empresas/${id}/roles-app`,
    memberAppRoles: (id: number, userId: number) => `empresas/${id}/miembros/${userId}/roles-app`,
    memberRolesOfApp: (id: number, userId: number, appId: number) =>
      `empresas/${id}/miembros/${userId}/roles-app/${appId}`,
    invitations: (id: number) => `empresas/${id}/invitaciones`,
    invitationList: (id: number) => `empresas/${id}/invitaciones/lote`,
    invitation: (id: number, invitationId: number) => `empresas/${id}/invitaciones/${invitationId}`,
    resend: (id: number, invitationId: number) => `empresas/${id}/invitaciones/${invitationId}/reenviar`,
    domains: (id: number) => `empresas/${id}/dominios`,
    domain: (id: number, domain: string) => `empresas/${id}/dominios/${encodeURIComponent(domain)}`,
    verifyDomain: (id: number, domain: string) => `empresas/${id}/dominios/${encodeURIComponent(domain)}/verificar`,
    confirmDomain: (id: number, domain: string) => `empresas/${id}/dominios/${encodeURIComponent(domain)}/confirmar`,
    report: (id: number) => `empresas/${id}/informe-puestos`,
    reportCsv: (id: number) => `empresas/${id}/informe-puestos.csv`,
    audit: (id: number) => `empresas/${id}/auditoria`,
    /**
     * The company's own sign-in (OpenID Connect or SAML): its owner's connection, or a platform administrator's (which
     * proves the domains); `providerRedirect` answers what the company's IT enters in its provider for either.
     */
    provider: (id: number) => `empresas/${id}/proveedor`,
    providerRedirect: (id: number) => `empresas/${id}/proveedor/redireccion`,
    platformProvider: (id: number) => `admin/empresas/${id}/proveedor`,
    /** The company directory's SCIM tokens, one of them (revoked), and the directory's last requests. */
    scimTokens: (id: number) => `empresas/${id}/scim/tokens`,
    scimToken: (id: number, tokenId: number) => `empresas/${id}/scim/tokens/${tokenId}`,
    scimLog: (id: number) => `empresas/${id}/scim/registro`,
    /** Where the company's activity log is streamed (its SIEM), one destination, and its test event. */
    auditStreams: (id: number) => `empresas/${id}/flujos-auditoria`,
    auditStream: (id: number, streamId: string) => `empresas/${id}/flujos-auditoria/${streamId}`,
    auditStreamTest: (id: number, streamId: string) => `empresas/${id}/flujos-auditoria/${streamId}/prueba`,
    /** The rules tying the directory's groups to seats and roles, one of them, and who waits for a seat. */
    groupRules: (id: number) => `empresas/${id}/grupos-directorio`,
    groupRule: (id: number, ruleId: number) => `empresas/${id}/grupos-directorio/${ruleId}`,
    groupWaiting: (id: number) => `empresas/${id}/grupos-directorio/esperando`,
    /** The company's setup links for its IT (its owners'), and one of them (revoked). */
    setupLinks: (id: number) => `empresas/${id}/enlaces-configuracion`,
    setupLink: (id: number, linkId: number) => `empresas/${id}/enlaces-configuracion/${linkId}`,
  },
  /**
   * The company's setup page, without an account: every call carries the link's secret as its bearer token; the page's
   * data, a domain claimed and proved ('Comprobar'), the provider saved, a directory token.
   */
  setupPage: {
    page: 'configuracion-empresa',
    domains: 'configuracion-empresa/dominios',
    verifyDomain: (domain: string) => `configuracion-empresa/dominios/${encodeURIComponent(domain)}/verificar`,
    provider: 'configuracion-empresa/proveedor',
    scimTokens: 'configuracion-empresa/scim/tokens',
    /** 'Probar conexión': its start (an address to open), and its result read back with the link. */
    connectionTest: 'configuracion-empresa/prueba',
    connectionTestResult: 'configuracion-empresa/prueba/resultado',
  },
  /** The signed-in person's own invitations to companies: the pending ones, accepting one (by code or id), declining. */
  myInvitations: {
    list: 'empresas/invitaciones/mias',
    accept: 'empresas/invitaciones/aceptar',
    decline: (id: number) => `empresas/invitaciones/${id}/rechazar`,
  },
  userPlans: {
    userAppPlans: 'plan-usuario/user-app-plans',
    changePlan: 'plan-usuario/cambiar-plan-app',
  },
  billing: {
    checkout: 'facturacion/checkout',
    plans: 'facturacion/planes',
    portal: 'facturacion/portal',
    customerSession: 'facturacion/customer-session',
  },
} as const;
