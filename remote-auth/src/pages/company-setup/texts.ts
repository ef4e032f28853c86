/** The company's setup page (/configurar-empresa): what its company's IT reads, without an account. */
export const TEXT_SETUP = {
  tabTitle: 'Configurar la empresa',
  title: (company: string) => `Configura el acceso de ${company}`,
  subtitle: (until: string) =>
    `Tres pasos para que las personas de la empresa entren al portal con sus cuentas de trabajo. Este enlace sirve hasta el ${until}`,
  loading: 'Abriendo la configuración de la empresa...',
  invalidTitle: 'Este enlace no sirve',
  noSecret:
    'Falta el código del enlace de configuración. Ábrelo otra vez tal como lo recibiste, completo, o pide uno nuevo al propietario de la empresa en el portal.',
  expiredTitle: 'El enlace de configuración venció',
  revokedTitle: 'El enlace de configuración ya no sirve',
  retry: 'Reintentar',
  stepsLabel: 'Pasos de la configuración',
  step: (n: number, name: string) => `${n}. ${name}`,

  // 1. The domain.
  domainStep: 'Dominio',
  domainIntro:
    'Prueba que el dominio de los emails de la empresa es suyo: publica en su DNS el registro TXT que se indica y pulsa «Comprobar».',
  domainLabel: 'Dominio de la empresa',
  domainHint: 'Por ejemplo, empresa.com.pe (sin @ ni www).',
  domainRequired: 'Escribe el dominio',
  addDomain: 'Agregar dominio',
  adding: 'Agregando...',
  noDomains: 'La empresa aún no tiene dominios.',
  verified: 'Verificado',
  pending: 'Pendiente del registro TXT',
  txtName: 'Nombre del registro TXT',
  txtValue: 'Valor del registro TXT',
  check: 'Comprobar',
  checking: 'Comprobando...',
  domainVerified: (domain: string) => `El dominio ${domain} quedó verificado.`,
  domainAdded: (domain: string) => `Dominio ${domain} agregado: publica su registro TXT y pulsa «Comprobar».`,

  // 2. The sign-in.
  signInStep: 'Inicio de sesión',
  signInIntro:
    'Conecta el proveedor de identidad de la empresa. Crea en él una aplicación para el portal con estos datos, y después guarda aquí lo que te da.',
  product: 'Tu proveedor',
  samlOnly: (product: string) => `Con ${product}, elige SAML 2.0.`,
  connected: (protocol: string) => `La empresa tiene conectado su proveedor por ${protocol}.`,
  needsDomain: 'Verifica primero un dominio en el paso 1: el proveedor se conecta para los dominios verificados.',
  providerSaved: 'Acceso de la empresa guardado.',
  testTitle: 'Probar conexión',
  testIntro:
    'Inicia sesión en el proveedor con una cuenta de la empresa: el portal dice qué recibió y si esa persona podría entrar, sin crear sesión ni cuenta.',
  test: 'Probar conexión',
  testing: 'Abriendo el proveedor...',
  testResult: 'Resultado de la prueba',
  testOk: 'La conexión funciona: esta persona podría entrar al portal con el acceso de la empresa.',
  testProblems: 'La conexión respondió, pero esta persona no podría entrar:',
  testEmail: 'Email recibido',
  testNames: 'Nombre recibido',
  testNone: 'Ninguno',

  // 3. The directory.
  directoryStep: 'Directorio',
  directoryIntro:
    'Para que el directorio de la empresa (Entra ID, Okta, Google Workspace…) cree y dé de baja a las personas por SCIM 2.0, registra en él esta URL y un token.',
  scimUrl: 'URL base de SCIM',
  createToken: 'Crear token',
  creatingToken: 'Creando...',
  token: 'Token del directorio',
  tokenOnce: 'Cópialo ahora: no se volverá a mostrar. Si lo pierdes, crea otro.',
} as const;

export type Product = 'entra' | 'okta' | 'google' | 'adfs';

export const PRODUCTS: { id: Product; name: string; oidc: string | null; saml: string }[] = [
  {
    id: 'entra',
    name: 'Microsoft Entra ID',
    oidc: 'En Entra ID: Registros de aplicaciones › Nuevo registro › Web, y pega la dirección de redirección. El emisor es https://login.microsoftonline.com/<id del inquilino>/v2.0; crea el secreto en Certificados y secretos.',
    saml: 'En Entra ID: Aplicaciones empresariales › Nueva aplicación › Crear la suya › SAML. Pega el identificador y la URL de respuesta (ACS); después copia aquí la URL de metadatos de federación de la aplicación.',
  },
  {
    id: 'okta',
    name: 'Okta',
    oidc: 'En Okta: Applications › Create App Integration › OIDC › Web Application, con la dirección de redirección como «Sign-in redirect URI». El emisor es https://<tu dominio>.okta.com.',
    saml: 'En Okta: Applications › Create App Integration › SAML 2.0. Pega la URL de respuesta (ACS) como «Single sign-on URL» y el identificador como «Audience URI»; después pega aquí sus metadatos.',
  },
  {
    id: 'google',
    name: 'Google Workspace',
    oidc: null,
    saml: 'En la consola de Google: Aplicaciones › Aplicaciones web y móviles › Agregar una app SAML personalizada. Pega la URL de respuesta (ACS) y el identificador (ID de entidad); descarga los metadatos del IdP y cárgalos aquí.',
  },
  {
    id: 'adfs',
    name: 'AD FS',
    oidc: null,
    saml: 'En AD FS: Agregar relación de confianza para usuario autenticado › Importar datos publicados en línea, con la URL de metadatos del portal. Después indica aquí https://<tu servidor>/FederationMetadata/2007-06/FederationMetadata.xml.',
  },
];
