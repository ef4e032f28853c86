import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { leftForSecondFactor, portalSignInOf } from '../../domain/identity-provider/continuation.js';
import {
  describeInteraction,
  finishInteraction,
  loadInteraction,
  refuseInteraction,
} from '../../domain/identity-provider/oidc/interactions.js';
import { errorPageUrl } from '../../domain/identity-provider/oidc/endpoints.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { commonErrors, ErrorRef } from '../../schemas/common.js';
import {
  InteractionAnswer,
  InteractionNext,
  InteractionUid,
  InteractionView,
} from '../../schemas/identity-provider.js';

const params = Type.Object({ uid: InteractionUid });
const tags = ['openid-connect'];
const bearer = /^Bearer +([A-Za-z0-9_.~+/-]+=*)$/i;

/**
 * The portal's side of an authorization (docs/decisions/0055): the API sends the browser to the portal's screens, which
 * call back here with the browser's interaction cookie (`credentials: 'include'`) and, to answer, the portal session.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, provider: app.identityProvider.provider };

  app.get(
    '/:uid',
    {
      schema: {
        summary: 'Lleva el navegador a las pantallas del portal para esta solicitud de inicio de sesión',
        tags,
        params,
        response: { 303: Type.Null(), ...commonErrors },
      },
    },
    async (request, reply) => {
      const { uid } = request.params;
      try {
        await loadInteraction(deps.provider, request.raw, reply.raw, uid);
      } catch {
        return reply.redirect(errorPageUrl(app.config.portalUrl, 'solicitud_expirada'), 303);
      }
      return reply.redirect(`${app.config.portalUrl}/autorizar?interaccion=${encodeURIComponent(uid)}`, 303);
    },
  );

  app.get(
    '/:uid/detalles',
    {
      schema: {
        summary: 'Qué app pide qué, y si hace falta el consentimiento o un inicio de sesión nuevo',
        tags,
        params,
        response: { 200: InteractionView, 403: ErrorRef, 404: ErrorRef, ...commonErrors },
      },
    },
    async (request, reply) => {
      const interaction = await loadInteraction(deps.provider, request.raw, reply.raw, request.params.uid);
      // The session is optional here: without one the page sends the person to sign in first.
      const token = bearer.exec(request.headers.authorization ?? '')?.[1];
      const auth = token && token.length <= 4096 ? await app.tokens.verify(token) : null;
      return describeInteraction(deps, interaction, auth ? portalSignInOf(auth, request.ip) : undefined);
    },
  );

  app.post(
    '/:uid/continuar',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Termina el inicio de sesión en la app con la sesión del portal (y el consentimiento, si hace falta)',
        tags,
        security: [{ bearerAuth: [] }],
        params,
        body: InteractionAnswer,
        response: { 200: InteractionNext, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef, 409: ErrorRef, ...commonErrors },
      },
    },
    async (request, reply) => {
      const interaction = await loadInteraction(deps.provider, request.raw, reply.raw, request.params.uid);
      const redirectTo = await finishInteraction(
        deps,
        request.raw,
        reply.raw,
        interaction,
        portalSignInOf(signedIn(request), request.ip),
        request.body.permitir === true,
      );
      return { redirectTo };
    },
  );

  app.post(
    '/:uid/cancelar',
    {
      schema: {
        summary:
          'La persona no permite el acceso: la app recibe access_denied (unmet_authentication_requirements si no ' +
          "probó el segundo factor que la app pidió: cuerpo opcional { motivo: 'segundo_factor' })",
        tags,
        params,
        response: { 200: InteractionNext, 404: ErrorRef, ...commonErrors },
      },
    },
    async (request, reply) => {
      const interaction = await loadInteraction(deps.provider, request.raw, reply.raw, request.params.uid);
      const stepUp = leftForSecondFactor(request.body);
      return { redirectTo: await refuseInteraction(deps.provider, request.raw, reply.raw, interaction, stepUp) };
    },
  );
};

export default routes;
