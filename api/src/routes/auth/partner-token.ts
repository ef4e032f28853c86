import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isAllowedRedirect } from '@portal/contracts/redirect/allow-list';
import { portalSignInOf, refuseBrokenRules } from '../../domain/identity-provider/continuation.js';
import { HttpError } from '../../lib/errors.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { PartnerTokenAnswer, PartnerTokenBody } from '../../schemas/auth.js';
import { commonErrors, ErrorRef } from '../../schemas/common.js';
import { tokenMessages } from '../../domain/tokens/messages.js';

/** Who a partner token is for: the web target's origin, or the mobile deep link's scheme (`betopro`). */
export function partnerAudience(target: string): string {
  const url = new URL(target);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : url.protocol.slice(0, -1);
}

/** What the portal hands to a partner app instead of its own session token (docs/decisions/0007-partner-tokens.md). */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/partner-token',
    {
      onRequest: app.authenticate,
      schema: {
        summary:
          'Crea un token de corta duración para una app asociada de la lista permitida (con una sesión del portal)',
        description:
          'El portal lo añade como `token` a la dirección de la app asociada. Solo sirve para `GET /auth/user` ' +
          'y `POST /plan-usuario/user-app-plans` de la propia persona; cualquier otra llamada lo rechaza con 401 o 403. ' +
          'Es una puerta más de las apps asociadas: una sesión que las reglas de su empresa no permiten (red, método) ' +
          'recibe el mismo 403 RED_NO_PERMITIDA o METODO_NO_PERMITIDO que las demás. ' +
          'Cómo verificarlo sin llamar a la API: ver la descripción general de este documento.',
        tags: ['auth'],
        security: [{ bearerAuth: [] }],
        body: PartnerTokenBody,
        response: { 200: PartnerTokenAnswer, 401: ErrorRef, 403: ErrorRef, ...commonErrors },
      },
    },
    async (request) => {
      const session = signedIn(request);
      // A partner token signs the person in to the app: the same door as the others (decision 0146), refused alike.
      await refuseBrokenRules(app.db, portalSignInOf(session, request.ip));
      const target = request.body.redirect_url;
      if (!isAllowedRedirect(target, app.config.redirectAllowList)) {
        throw new HttpError(400, tokenMessages.redirectNotAllowed, 'REDIRECT_NOT_ALLOWED');
      }
      const minted = await app.tokens.signPartner(session, partnerAudience(target));
      return {
        access_token: minted.token,
        token_type: 'Bearer' as const,
        expires_in: minted.expiresIn,
        audience: minted.audience,
      };
    },
  );
};

export default routes;
