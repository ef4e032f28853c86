// The Spanish texts of the event subscriptions: answers of the admin routes and the delivery errors the panel shows.
export const partnerEventMessages = {
  subscriptionNotFound: 'Suscripción no encontrada',
  deliveryNotFound: 'Entrega no encontrada',
  stillPending: 'La entrega aún está en cola: el portal la está enviando o reintentando',
  subscriptionDisabled: (reason: string | null) =>
    `La suscripción está desactivada${reason ? ` (${reason})` : ''}: no se le puede reenviar nada`,
  urlRequired: 'Indica la dirección (url) que recibirá los eventos',
  urlInvalid: (url: string) => `La dirección "${url}" no es una URL absoluta válida`,
  urlTooLong: (max: number) => `La dirección no puede superar ${max} caracteres`,
  urlHttpsOnly: 'La dirección debe usar https (http solo en una red privada o local que el operador haya permitido)',
  urlWithCredentials: 'La dirección no puede llevar usuario ni contraseña: el portal firma cada evento en su lugar',
  urlWithFragment: 'La dirección no puede llevar fragmento (#)',
  urlPrivate: (host: string) =>
    `La dirección apunta a ${host}, una dirección privada o local: el portal no envía eventos a la red interna`,
  eventsRequired: 'Elige al menos un evento',
  unknownEvents: (names: string[]) => `Eventos desconocidos: ${names.join(', ')}`,
  tooManySubscriptions: (max: number) => `Una aplicación puede tener como mucho ${max} suscripciones`,
  // What a try saw, kept in last_error (the panel reads it as is).
  timedOut: (ms: number) => `El receptor no respondió a tiempo (plazo de ${Math.round(ms / 100) / 10} s)`,
  redirected: (status: number) => `El receptor respondió con una redirección (${status}), que el portal no sigue`,
  notAccepted: (status: number) => `El receptor respondió ${status}`,
  gone: 'El receptor respondió 410: la suscripción quedó desactivada',
  goneReason: 'El receptor respondió 410: ya no acepta eventos',
  privateAddress: 'La dirección del receptor es privada o local y no está permitida',
  interrupted: 'El envío se interrumpió porque el portal se estaba reiniciando; se vuelve a enviar enseguida',
  network: (code: string) => `El envío falló por un error de red (${code})`,
} as const;
