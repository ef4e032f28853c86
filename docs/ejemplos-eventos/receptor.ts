// Un receptor de los eventos del portal en Node, sin framework: comprueba la firma con el paquete oficial de Standard
// Webhooks (`npm install standardwebhooks`), aplica cada evento una sola vez (por su webhook-id) y responde 2xx
// enseguida. Lo que no pasa la comprobación se rechaza con 401 y no se aplica.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export interface EventoDelPortal {
  type: string;
  timestamp: string;
  data: { sub: string; [campo: string]: unknown };
}

/** El evento, si la firma es de este secreto (whsec_...) y la hora no se aleja más de 5 minutos; si no, lanza. */
export function verificarEvento(secreto: string, cuerpo: string, cabeceras: IncomingMessage['headers']) {
  return new Webhook(secreto).verify(cuerpo, cabeceras as Record<string, string>) as EventoDelPortal;
}

/**
 * El manejador de la URL suscrita. `aplicar` guarda el cambio en la base de datos de la app; `yaAplicado` dice si un
 * webhook-id ya se aplicó (en producción, una tabla con el webhook-id como clave única, escrita con el cambio).
 */
export function receptorDeEventos(
  secreto: string,
  aplicar: (evento: EventoDelPortal, webhookId: string) => Promise<void>,
  yaAplicado: (webhookId: string) => Promise<boolean>,
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
    const webhookId = String(peticion.headers['webhook-id']);
    if (!(await yaAplicado(webhookId))) await aplicar(evento, webhookId);
    respuesta.writeHead(204).end();
  };
}
