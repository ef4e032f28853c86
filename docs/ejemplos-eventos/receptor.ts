// Un receptor de los eventos del portal en Node, sin framework: comprueba la firma con el paquete oficial de Standard
// Webhooks (`npm install standardwebhooks`), aplica cada evento una sola vez y en orden (por su `seq`) y responde 2xx
// enseguida. Lo que no pasa la comprobación se rechaza con 401 y no se aplica.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export interface EventoDelPortal {
  type: string;
  timestamp: string;
  /** El número de orden del mensaje en la suscripción: crece de uno en uno y se repite en cada reintento. */
  seq: number;
  data: { sub: string; [campo: string]: unknown };
}

/** El evento, si la firma es de este secreto (whsec_...) y la hora no se aleja más de 5 minutos; si no, lanza. */
export function verificarEvento(secreto: string, cuerpo: string, cabeceras: IncomingMessage['headers']) {
  return new Webhook(secreto).verify(cuerpo, cabeceras as Record<string, string>) as EventoDelPortal;
}

/**
 * El manejador de la URL suscrita. `aplicar` guarda el cambio en la base de datos de la app junto con su `seq`, en la
 * misma transacción; `ultimoSeq` dice el `seq` del último evento aplicado de esa persona (o null). Un evento con un
 * `seq` igual o menor ya se aplicó o quedó superado (un reintento, o un 'Reenviar' que llega tras otros posteriores):
 * se responde 2xx y no se aplica.
 */
export function receptorDeEventos(
  secreto: string,
  aplicar: (evento: EventoDelPortal, webhookId: string) => Promise<void>,
  ultimoSeq: (sub: string) => Promise<number | null>,
) {
  return async (peticion: IncomingMessage, respuesta: ServerResponse) => {
    let cuerpo = '';
    for await (const trozo of peticion) cuerpo += trozo;
    let evento: EventoDelPortal;
    try {
      evento = verificarEvento(secreto, cuerpo, peticion.headers);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      respuesta.writeHead(401).end();
      return;
    }
    const ultimo = await ultimoSeq(evento.data.sub);
    if (ultimo === null || evento.seq > ultimo) await aplicar(evento, String(peticion.headers['webhook-id']));
    respuesta.writeHead(204).end();
  };
}
