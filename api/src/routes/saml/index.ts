import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { leftForSecondFactor, portalSignInOf } from '../../domain/identity-provider/continuation.js';
import cookie from '@fastify/cookie';
import {
  chainCookie,
  nextHop,
  SamlLogoutRefused,
  takeLogoutResponse,
} from '../../domain/identity-provider/saml/front-logout.js';
import { idpMetadataXml } from '../../domain/identity-provider/saml/metadata.js';
import {
  logoutRefusalPage,
  type Page,
  postPage,
  refusalPage,
  tooManyRequestsPage,
} from '../../domain/identity-provider/saml/pages.js';
import {
  acceptRequest,
  describeRequest,
  refuseRequest,
  SamlRequestRefused,
  takeDelivery,
  takePostRequest,
  takeRedirectRequest,
} from '../../domain/identity-provider/saml/sign-in.js';
import { documentHeaders } from '../../plugins/external/helmet.js';
import { answerBrowserOverLimit, browserNavigation } from '../../plugins/external/rate-limit.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { commonErrors, ErrorRef, bearerSecurity as security } from '../../schemas/common.js';
import { InteractionAnswer, InteractionNext, InteractionView } from '../../schemas/identity-provider.js';
import { SamlDeliveryQuery, SamlLogoutChainQuery, SamlRequestParams } from '../../schemas/saml-idp.js';

const tags = ['saml'];
/** A POSTed AuthnRequest: the largest message taken (256 KiB), base64 and form-encoded. */
const formBodyLimit = 512 * 1024;
/** What a browser over the per-address limit sees. */
const tooManyPage = Type.String({ description: 'Página en español: demasiadas solicitudes desde esta dirección' });

/**
 * The portal as a SAML identity provider, under /saml/idp (docs/decisions/0100-saml-identity-provider.md): its
 * metadata, the sign-in endpoint of both bindings, the calls of the portal's /saml/continuar, and the one-time page
 * that posts the answer to the app, and the single logout the browser carries to the apps (decision 0113).
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  // The browser logout chain's cookie (front-logout.ts `chainCookie`).
  await app.register(cookie);
  const deps = {
    db: app.db,
    key: app.samlIdp.key,
    apiPublicUrl: app.config.apiPublicUrl,
    portalUrl: app.config.portalUrl,
  };
  const metadata = idpMetadataXml(app.config.apiPublicUrl, app.samlIdp.key);
  // Every call a browser or a script can repeat without a session, and the continuation calls, are limited per
  // address as the portal's own sign-in calls are (docs/api.md); the pages a browser opens answer the 429 as a page.
  const perIp = { rateLimit: { max: app.config.authRateLimitPerMinute, timeWindow: '1 minute' } };
  const perIpPage = { ...perIp, ...browserNavigation };

  const page = (reply: FastifyReply, status: number, made: Page) =>
    reply
      .code(status)
      .headers(documentHeaders)
      .header('content-security-policy', made.contentSecurityPolicy)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(made.html);

  /** Sends the browser on to the portal, or shows why not; a refusal sends nothing to anyone. */
  const answerRequest = async (request: FastifyRequest, reply: FastifyReply, take: () => Promise<string>) => {
    try {
      return reply.header('cache-control', 'no-store').redirect(await take(), 303);
    } catch (error) {
      if (!(error instanceof SamlRequestRefused)) throw error;
      request.log.info({ reason: error.reason, detail: error.message }, 'SAML AuthnRequest refused');
      return page(reply, 400, refusalPage(error.reason, app.config.portalUrl));
    }
  };

  answerBrowserOverLimit(app, (error, _request, reply) =>
    page(reply, 429, tooManyRequestsPage(error.message, app.config.portalUrl)),
  );

  app.get(
    '/metadata',
    {
      schema: {
        summary: 'Metadatos SAML del portal como proveedor de identidad (IDPSSODescriptor)',
        tags,
        response: { 200: Type.String({ description: 'EntityDescriptor en XML' }) },
      },
    },
    async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').type('application/samlmetadata+xml').send(metadata),
  );

  app.get(
    '/sso',
    {
      config: perIpPage,
      schema: {
        summary: 'Recibe un AuthnRequest (enlace HTTP-Redirect) y lleva a la persona al portal',
        tags,
        querystring: Type.Object({}, { additionalProperties: true }),
        response: { 303: Type.Null(), 400: ErrorRef, 429: tooManyPage },
      },
    },
    async (request, reply) => {
      const url = request.raw.url ?? '';
      const at = url.indexOf('?');
      return answerRequest(request, reply, () => takeRedirectRequest(deps, at === -1 ? '' : url.slice(at + 1)));
    },
  );

  await app.register(async (form) => {
    form.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: formBodyLimit },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    form.post(
      '/sso',
      {
        config: perIpPage,
        bodyLimit: formBodyLimit,
        schema: {
          summary: 'Recibe un AuthnRequest (enlace HTTP-POST) y lleva a la persona al portal',
          tags,
          response: { 303: Type.Null(), 400: ErrorRef, 429: tooManyPage },
        },
      },
      async (request, reply) =>
        answerRequest(request, reply, () => takePostRequest(deps, (request.body ?? {}) as Record<string, unknown>)),
    );
  });

  app.get(
    '/solicitudes/:id',
    {
      config: perIp,
      onRequest: app.authenticate,
      schema: {
        summary: 'Qué app pide el inicio de sesión SAML y si hace falta el consentimiento',
        tags,
        security,
        params: SamlRequestParams,
        response: { 200: InteractionView, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef, 429: ErrorRef, ...commonErrors },
      },
    },
    async (request) => describeRequest(app.db, request.params.id, portalSignInOf(signedIn(request), request.ip)),
  );

  app.post(
    '/solicitudes/:id/continuar',
    {
      config: perIp,
      onRequest: app.authenticate,
      schema: {
        summary: 'Responde a la app con la sesión del portal (y el consentimiento, si hace falta); una sola vez',
        tags,
        security,
        params: SamlRequestParams,
        body: InteractionAnswer,
        response: {
          200: InteractionNext,
          401: ErrorRef,
          403: ErrorRef,
          404: ErrorRef,
          409: ErrorRef,
          429: ErrorRef,
          ...commonErrors,
        },
      },
    },
    async (request) =>
      acceptRequest(
        deps,
        request.params.id,
        portalSignInOf(signedIn(request), request.ip),
        request.body?.permitir === true,
      ),
  );

  app.post(
    '/solicitudes/:id/cancelar',
    {
      config: perIp,
      onRequest: app.authenticate,
      schema: {
        summary:
          'La persona no permite el acceso: la app recibe RequestDenied (NoAuthnContext si no probó el segundo ' +
          "factor que la app pidió: cuerpo opcional { motivo: 'segundo_factor' })",
        tags,
        security,
        params: SamlRequestParams,
        response: { 200: InteractionNext, 401: ErrorRef, 404: ErrorRef, 429: ErrorRef, ...commonErrors },
      },
    },
    async (request) =>
      refuseRequest(deps, request.params.id, { userId: signedIn(request).user.id }, leftForSecondFactor(request.body)),
  );

  app.get(
    '/enviar',
    {
      config: perIpPage,
      schema: {
        summary: 'Página de un solo uso que envía la respuesta SAML firmada a la app (HTTP-POST)',
        tags,
        querystring: SamlDeliveryQuery,
        response: {
          200: Type.String({ description: 'Página que envía la respuesta' }),
          400: ErrorRef,
          429: tooManyPage,
        },
      },
    },
    async (request, reply) => {
      const delivery = await takeDelivery(app.db, request.query.secreto);
      if (!delivery) return page(reply, 400, refusalPage('deliveryGone', app.config.portalUrl));
      return page(reply, 200, postPage(delivery));
    },
  );

  app.get(
    '/slo',
    {
      config: perIpPage,
      schema: {
        summary:
          'Cierre de sesión (HTTP-Redirect): la respuesta de una app al cierre que el portal le pidió sigue la cadena; ' +
          'el cierre pedido por una app lleva a la persona a cerrar sesión en el portal',
        tags,
        querystring: Type.Object({}, { additionalProperties: true }),
        response: { 303: Type.Null(), 400: ErrorRef, 429: tooManyPage },
      },
    },
    async (request, reply) => {
      const url = request.raw.url ?? '';
      const at = url.indexOf('?');
      const query = at === -1 ? '' : url.slice(at + 1);
      if (!/(^|&)SAMLResponse=/.test(query))
        return reply.header('cache-control', 'no-store').redirect(`${app.config.portalUrl}/logout`, 303);
      try {
        return reply
          .header('cache-control', 'no-store')
          .redirect(await takeLogoutResponse(deps, query, request.cookies[chainCookie.name]), 303);
      } catch (error) {
        if (!(error instanceof SamlLogoutRefused)) throw error;
        request.log.info({ detail: error.message }, 'SAML LogoutResponse refused');
        return page(reply, 400, logoutRefusalPage(app.config.portalUrl, error.continueTo));
      }
    },
  );

  app.get(
    '/cierre',
    {
      config: perIpPage,
      schema: {
        summary:
          'Cadena de cierre de sesión por el navegador: lleva a la siguiente app SAML con un LogoutRequest firmado, ' +
          'o al fin a /login del portal',
        tags,
        querystring: SamlLogoutChainQuery,
        response: { 303: Type.Null(), 429: tooManyPage },
      },
    },
    async (request, reply) => {
      const hop = await nextHop(deps, request.query.cadena, request.cookies[chainCookie.name]);
      // The first hop binds the chain to this browser: later hops and the apps' answers are read with the cookie.
      if (hop.bind)
        reply.setCookie(chainCookie.name, hop.bind, {
          path: chainCookie.path,
          httpOnly: true,
          secure: app.config.apiPublicUrl.startsWith('https:'),
          sameSite: 'lax',
          maxAge: chainCookie.maxAgeSeconds,
        });
      return reply.header('cache-control', 'no-store').redirect(hop.location, 303);
    },
  );
};

export default routes;
