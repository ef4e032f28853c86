/** What the API says about a company's own sign-in (its OpenID Connect provider): one Spanish text per key. */
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
} as const;
