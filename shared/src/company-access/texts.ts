/**
 * The words of a company's own sign-in and directory forms, the same in the admin panel's 'Acceso de la empresa' and
 * on the company's setup page (/configurar-empresa): one text, one meaning.
 */
export const TEXT_ACCESS = {
  // 'Copiar' beside a value to hand to another system, and what it says once done or when it cannot.
  copy: 'Copiar',
  copied: 'Copiado',
  copyFailed: 'No se pudo copiar: selecciónalo y cópialo a mano.',
  copyOf: (what: string) => `Copiar ${what}`,

  // A SAML metadata document pasted or loaded from its file: a company's provider, a partner app.
  loadMetadataFile: 'Cargar archivo XML',
  metadataLoaded: (file: string) => `Cargado: ${file}. Revisa el XML antes de guardar.`,
  metadataTooLarge: 'El archivo pasa de 1 MB: no parecen unos metadatos SAML.',
  metadataUnreadable: 'No se pudo leer el archivo: pega su contenido a mano.',

  // The company's identity provider, by OpenID Connect.
  providerForm: 'Proveedor de identidad',
  issuer: 'Emisor (issuer)',
  issuerHint: 'La dirección https del proveedor, la que publica /.well-known/openid-configuration.',
  clientIdLabel: 'ID de cliente',
  clientSecretLabel: 'Secreto de cliente',
  clientSecretKept: 'Vacío: se mantiene el actual.',
  accessDomains: 'Dominios',
  accessDomainsHint: 'Quien tenga un email de estos dominios entra con el proveedor de la empresa.',
  noProvedDomains: 'La empresa no tiene dominios verificados: verifica uno antes de conectar el proveedor.',
  otherDomains: 'Otros dominios (separados por comas)',
  otherDomainsHint: 'Al guardar, la plataforma los da por probados para esta empresa.',
  allowPassword: 'Permitir también la contraseña del portal',
  issuerRequired: 'Escribe el emisor (issuer) del proveedor',
  clientIdRequired: 'Escribe el ID de cliente',
  clientSecretRequired: 'Escribe el secreto de cliente',
  domainsRequired: 'Elige al menos un dominio',
  redirectUri: 'Dirección de redirección',
  redirectUriHint:
    'Registra esta dirección de redirección en tu proveedor: al crear allí la aplicación del portal te da su ID y su secreto de cliente.',
  save: 'Guardar',
  saving: 'Guardando...',
  saveProviderFailed: 'No se pudo guardar el acceso de la empresa',

  // The company's SAML 2.0 identity provider, the portal its service provider (decision 0101).
  protocol: 'Protocolo',
  protocolOidc: 'OpenID Connect',
  protocolSaml: 'SAML 2.0',
  replacesOther: (other: string) => `Al guardar, este acceso sustituye al de ${other} que la empresa tiene ahora.`,
  samlValues: 'Datos para el proveedor de la empresa',
  samlValuesHint:
    'Crea en el proveedor de la empresa (AD FS, Entra ID, Okta…) una aplicación SAML con estos datos, o importa la URL de metadatos; después pega aquí los metadatos que exporta, o indica la URL donde los publica.',
  spEntityId: 'Identificador (Entity ID)',
  spAcsUrl: 'URL de respuesta (ACS)',
  spMetadataUrl: 'URL de metadatos',
  metadata: 'Metadatos del proveedor (XML)',
  metadataHint: 'Pega el XML de metadatos que exporta el proveedor de la empresa, o carga su archivo.',
  metadataKept:
    'Vacío, como la URL: se mantienen los metadatos guardados (y su URL, si la tiene). Pega los nuevos cuando el proveedor cambie su certificado.',
  metadataRequired: 'Pega o carga los metadatos del proveedor (XML), o indica su URL de metadatos',
  metadataAddress: 'URL de metadatos del proveedor',
  metadataAddressHint:
    'O, en lugar del XML, la dirección https:// de sus metadatos (la de federación de Entra ID o AD FS): el portal los lee al guardar y una vez al día. Uno de los dos, no ambos.',
  metadataOneSource: 'Pega el XML o indica la URL de metadatos del proveedor, no los dos',
} as const;
