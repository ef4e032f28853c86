/** What the API says about a company's own sign-in (its OpenID Connect or SAML provider): one Spanish text per key. */
export const ssoMessages = {
  noConnection: 'La empresa no tiene configurado su propio acceso',
  secretRequired: 'Indica el secreto de cliente (clientSecret): la empresa aún no tiene su acceso configurado',
  issuerInvalid:
    'El emisor (issuer) debe ser una dirección https:// (http:// solo en 127.0.0.1 o localhost, para pruebas)',
  domainsInvalid: 'Indica de 1 a 20 dominios de la empresa',
  domainNotProved: (domain: string) =>
    `La empresa aún no ha probado el dominio ${domain}: pruébalo en «Dominios» antes de conectarlo a su acceso`,
  privateNetwork:
    'La dirección del emisor lleva a una red privada o reservada: usa la dirección pública de tu proveedor.',
  unreachable: (url: string, reason: string) =>
    `No se pudo leer la configuración del proveedor en ${url} (${reason}). Comprueba el emisor (issuer).`,
  linkInvalid:
    'El enlace con el acceso de tu empresa ha caducado o no es válido. Vuelve a pulsar «Continuar con el acceso de tu empresa».',
  passwordRefused: (company: string) =>
    `Tu empresa pide iniciar sesión con su propio acceso: pulsa «Continuar con el acceso de ${company}».`,
  // What the company's administrators read as the connection's last error (GET /empresas/:id/proveedor).
  errorDiscovery: (url: string, reason: string) =>
    `No se pudo leer la configuración del proveedor en ${url} (${reason}) al iniciar sesión`,
  errorClient: (reason: string) =>
    `El proveedor rechazó las credenciales del portal (${reason}): revisa el identificador y el secreto de cliente`,
  errorToken: (reason: string) => `El proveedor no respondió al canjear el código de inicio de sesión (${reason})`,
  // A SAML provider's metadata refused when saving (400 METADATOS_SAML_INVALIDOS).
  samlMetadataInvalid: (reason: string) => `Los metadatos SAML del proveedor no son válidos: ${reason}.`,
  samlMetadataNotXml:
    'no son un documento XML aceptable (sin DOCTYPE ni entidades, de 1 MiB como mucho): pega el XML de metadatos tal como lo descarga el proveedor',
  samlMetadataNoEntity: 'falta el EntityDescriptor con su entityID (de 500 caracteres como mucho)',
  samlMetadataNoIdp: 'falta el IDPSSODescriptor: son los metadatos de un proveedor de identidad los que hay que pegar',
  samlMetadataNoSso: 'falta un SingleSignOnService https:// con el binding HTTP-Redirect',
  samlMetadataNoCertificate: 'falta el certificado de firma (un KeyDescriptor con use="signing" y su X509Certificate)',
  samlMetadataBadCertificate: 'uno de sus certificados no se puede leer',
  samlMetadataTooManyCertificates: (max: number) => `trae más de ${max} certificados de firma`,
  samlMetadataSource:
    'Indica los metadatos SAML del proveedor (metadata) o la dirección de donde leerlos (urlMetadatos), solo uno de los dos',
  samlMetadataRequired:
    'Para conectar el proveedor SAML hacen falta sus metadatos: pégalos (metadata) o indica la dirección de donde leerlos (urlMetadatos)',
  samlMetadataUrlInvalid:
    'La dirección de los metadatos debe ser https:// (http:// solo en 127.0.0.1 o localhost, para pruebas)',
  samlMetadataUnreachable: (url: string, reason: string) =>
    `No se pudieron leer los metadatos del proveedor en ${url} (${reason}). Comprueba la dirección o pega el XML.`,
  samlSignedRequests:
    'El proveedor pide solicitudes firmadas (WantAuthnRequestsSigned="true") y el portal envía sus solicitudes SAML sin firmar: desactiva esa opción en el proveedor y vuelve a pegar sus metadatos.',
  // What the company's administrators read as the connection's last error after a refused SAML response.
  errorSamlSignature:
    'La respuesta SAML no venía firmada con un certificado de los metadatos del proveedor: si el proveedor cambió de certificado, vuelve a pegar sus metadatos',
  errorSamlIssuer: (issuer: string, expected: string) =>
    `La respuesta SAML la emitió ${issuer} y los metadatos guardados son de ${expected}: vuelve a pegar los metadatos del proveedor`,
  errorSamlAudience: (entityId: string) =>
    `La respuesta SAML iba dirigida a otra aplicación: el identificador (entity ID) de la aplicación en el proveedor debe ser ${entityId}`,
  errorSamlRecipient: (acsUrl: string) =>
    `La respuesta SAML se envió a otra dirección: la dirección de respuesta (ACS) en el proveedor debe ser ${acsUrl}`,
  errorSamlClock:
    'La respuesta SAML estaba fuera de su plazo de validez con más de 2 minutos de margen: revisa la hora del servidor del proveedor',
  errorSamlStatus: (status: string) =>
    `El proveedor respondió a la solicitud de inicio de sesión con un error (${status})`,
  errorSamlMetadataRefresh: (url: string, reason: string) =>
    `No se pudieron volver a leer los metadatos del proveedor en ${url} (${reason}): se siguen usando los guardados`,
  errorSamlNoEmail:
    'La respuesta SAML no traía el correo de la persona: envía el NameID con formato emailAddress o el atributo emailaddress (o email, mail o urn:oid:0.9.2342.19200300.100.1.3)',
  errorSamlSha1: 'El proveedor firma con SHA-1, que ya no es seguro. Configúralo para firmar con RSA-SHA256.',
  errorSamlAlgorithm: (algorithm: string) =>
    `El proveedor firma con un algoritmo que el portal no acepta (${algorithm || 'sin algoritmo'}). Configúralo para firmar con RSA-SHA256.`,
  // What 'Probar conexión' says went wrong before anyone came back (connection-test.ts adds what is wrong with them).
  testNoProvider: 'la empresa no tiene su proveedor de identidad conectado: guárdalo primero',
  testDiscovery:
    'no se pudo leer la configuración del proveedor (/.well-known/openid-configuration): revisa el emisor (issuer)',
  testProviderError: (error: string) => `el proveedor respondió con el error «${error}»`,
  testRefusal: (code: string) =>
    ({
      company_email_unverified: 'el proveedor dice que el email de la persona no está verificado',
      company_domain_mismatch: 'el email de la persona no es de un dominio de la empresa en el portal',
      company_unavailable:
        'el proveedor rechazó las credenciales del portal (ID o secreto de cliente) o no se pudo contactar',
    })[code] ??
    'la respuesta del proveedor no se pudo verificar (firma, plazo o destinatario): revisa los datos registrados en el proveedor',
} as const;
