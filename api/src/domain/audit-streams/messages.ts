// The Spanish texts of a company's SIEM destinations: answers of its routes and what a try saw (the panel shows it).
export const auditStreamMessages = {
  notFound: 'Ese destino del registro de actividad no existe en la empresa',
  tooMany: (max: number) => `Una empresa puede tener como mucho ${max} destinos para su registro de actividad`,
  fieldRequired: (field: string, kind: string) => `Falta «${field}»: un destino ${kind} lo necesita`,
  fieldNotAllowed: (field: string, kind: string) => `«${field}» no se usa en un destino ${kind}`,
  hostInvalid: (host: string) => `«${host}» no es un nombre de servidor ni una dirección IP válidos`,
  hostPrivate: (host: string) =>
    `El servidor ${host} está en una dirección privada o local: el portal no envía el registro a la red interna`,
  pemInvalid: (field: string) => `«${field}» no es un certificado PEM válido (-----BEGIN CERTIFICATE----- …)`,
  keyInvalid: 'La «clave» no es una clave privada PEM válida (sin contraseña)',
  keyWithoutCertificate: 'La «clave» del cliente va con su «certificado»',
  keyDoesNotMatch: 'La «clave» no corresponde al «certificado» del cliente',
  secretWithoutHeader: 'El «secreto» va con el nombre de la «cabecera» que lo lleva',
  headerReserved: (name: string) =>
    `«${name}» no puede llevar el secreto: es una cabecera que el portal escribe o que gobierna la conexión (usa, p. ej., Authorization o X-Api-Key)`,
  secretRequired: (field: string) =>
    `Cambiaste la dirección del destino: escribe de nuevo «${field}». El portal no lo envía a otra dirección sin que lo escribas otra vez`,
  // What a try saw, kept as the destination's last error: a sentence for each kind of failure, never a code.
  timedOut: (seconds: number) => `El receptor no respondió a tiempo (plazo de ${seconds} s)`,
  refused: 'El receptor rechazó la conexión (¿está en marcha y escucha en ese puerto?)',
  notFoundHost: (host: string) => `No se encontró el servidor ${host} (DNS)`,
  unreachable: 'No hay camino por la red hasta el receptor (red o servidor inalcanzable)',
  closed: 'El receptor cerró la conexión antes de recibir todo el envío',
  notHttp: 'El receptor respondió algo que no es HTTP',
  certificateNotSignedByCa: 'El certificado del receptor no lo firma la autoridad que diste',
  certificateNotTrusted:
    'El certificado del receptor no lo firma ninguna autoridad en la que confíe el portal: da la suya en «ca»',
  certificateExpired: 'El certificado del receptor caducó',
  certificateNotYetValid: 'El certificado del receptor aún no es válido (¿está bien la hora de las dos máquinas?)',
  certificateWrongName: (host: string) => `El certificado del receptor no es para ${host}`,
  certificateRevoked: 'El certificado del receptor está revocado',
  certificateInvalid: 'El certificado del receptor no es válido',
  notTls: 'El receptor no respondió con TLS: ¿es ese su puerto de TLS?',
  tlsVersion: 'El receptor no acepta TLS 1.2 ni más reciente, que es lo que usa el portal',
  tlsHandshake: 'El receptor rechazó el inicio de la conexión TLS (versión, cifrado o nombre del servidor)',
  clientCertificateRequired: 'El receptor pide un certificado de cliente: da «certificado» y «clave»',
  clientCertificateRefused: 'El receptor no aceptó el certificado de cliente del portal',
  tls: 'La conexión TLS con el receptor falló',
  // Said alike whatever led there (a literal, a name, what a name resolved to): no probe of the internal network.
  privateAddress: 'La dirección del receptor no está permitida',
  network: 'El envío falló por un error de red',
  notAccepted: (status: number, body: string) => `El receptor respondió ${status}${body ? `: ${body}` : ''}`,
  redirected: (status: number) => `El receptor respondió con una redirección (${status}), que el portal no sigue`,
  interrupted: 'El envío se interrumpió porque el portal se estaba reiniciando; se vuelve a enviar enseguida',
  paused: 'Pausado tras 24 horas sin poder entregar',
  // The test's answers.
  testAccepted: (detail: string) => `El receptor aceptó el evento de prueba (${detail})`,
  testFailed: (reason: string) => `El evento de prueba no se entregó: ${reason}`,
} as const;
