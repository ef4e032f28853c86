import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  accept,
  decline,
  invitationsFor,
  invite,
  listInvitations,
  resend,
  revoke,
} from '../../domain/companies/invitations.js';
import { inviteList, maxListRows } from '../../domain/companies/invitation-lists.js';
import { companyMessages } from '../../domain/companies/messages.js';
import { normalizeEmail } from '../../lib/email-address.js';
import { HttpError } from '../../lib/errors.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { companyOf } from '../../plugins/app/company-access.js';
import { adminErrors, bearerSecurity as security, ErrorRef } from '../../schemas/common.js';
import { CompanyParams } from '../../schemas/companies.js';
import {
  AcceptBody,
  Accepted,
  Invitation,
  InvitationList,
  InvitationListAnswer,
  InvitationListBody,
  InvitationParams,
  InviteBody,
  OwnInvitationList,
  OwnInvitationParams,
} from '../../schemas/company-invitations.js';

const errors = { ...adminErrors, 404: ErrorRef, 409: ErrorRef };

/**
 * A company's invitations, for its owners and administrators (and platform administrators), and what the invited
 * person does with theirs: list, accept, decline. The person's own calls take any portal session of the invited
 * address, never a partner token (the scope's `authenticate` refuses those).
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const manager = app.companyRole('administrador');
  // Accepting compares a code: limited per address like the other code routes.
  const perIp = { rateLimit: { max: app.config.authRateLimitPerMinute, timeWindow: '1 minute' } };

  app.post(
    '/:id/invitaciones',
    {
      onRequest: manager,
      schema: {
        summary: 'Invita un email a la empresa con un rol y le envía un código de 6 dígitos y un enlace (7 días)',
        description:
          '409 `YA_ES_MIEMBRO` si el email es de un miembro; 409 `INVITACION_PENDIENTE` si ya tiene una invitación ' +
          "pendiente (una vencida se reemplaza). Solo un propietario o un administrador de la plataforma invita a un 'propietario'.",
        tags: ['empresas'],
        security,
        params: CompanyParams,
        body: InviteBody,
        response: { 201: Invitation, 429: ErrorRef, ...errors },
      },
    },
    async (request, reply) => {
      const { email, rol, idApp } = request.body;
      const body = { email: normalizeEmail(email), role: rol, appId: idApp };
      return reply.code(201).send(await invite(app, signedIn(request), companyOf(request), body));
    },
  );

  app.post(
    '/:id/invitaciones/lote',
    {
      onRequest: manager,
      schema: {
        summary:
          'Invita una lista de personas (hasta 500 filas), cada fila como una invitación, con un resultado por fila',
        description:
          "200 `{ resultados }`, uno por fila en el orden enviado: 'invitada', 'ya_miembro', 'ya_invitada' o 'error' " +
          'con `codigo` y `mensaje` en español (y `retryAfter` pasado el límite de correos de la hora). Cada fila se ' +
          'hace o no por sí sola; una que no se llegó a procesar es `NO_PROCESADA` y se envía de nuevo. Un cuerpo mal ' +
          'formado o sin filas, o con más de 500, es 400 y no cambia nada.',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        body: InvitationListBody,
        response: { 200: InvitationListAnswer, ...errors },
      },
    },
    async (request) => {
      const { filas } = request.body;
      if (filas.length === 0) throw new HttpError(400, companyMessages.listEmpty, 'VALIDATION_ERROR');
      if (filas.length > maxListRows) {
        throw new HttpError(400, companyMessages.listTooLong(maxListRows), 'VALIDATION_ERROR');
      }
      // Rows start while half the request's deadline is left: the answer, with what was done, leaves in time.
      const startedAt = performance.now();
      const resultados = await inviteList(app, signedIn(request), companyOf(request), filas, {
        stillInTime: () => performance.now() - startedAt < app.config.requestTimeoutMs / 2,
        failed: (error) => request.log.error({ err: error }, 'an invitation of a list failed'),
      });
      return { resultados };
    },
  );

  app.get(
    '/:id/invitaciones',
    {
      onRequest: manager,
      schema: {
        summary: 'Invitaciones de la empresa, las más nuevas primero (hasta 500)',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        response: { 200: InvitationList, ...errors },
      },
    },
    async (request) => listInvitations(app, companyOf(request).companyId),
  );

  app.post(
    '/:id/invitaciones/:idInvitacion/reenviar',
    {
      onRequest: manager,
      schema: {
        summary: 'Envía un código nuevo de la invitación, válido 7 días más; el anterior deja de valer',
        description: '429 `CODE_COOLDOWN` con `retryAfter` si el último se envió hace menos de un minuto.',
        tags: ['empresas'],
        security,
        params: InvitationParams,
        response: { 200: Invitation, 429: ErrorRef, ...errors },
      },
    },
    async (request) => resend(app, signedIn(request), companyOf(request), request.params.idInvitacion),
  );

  app.delete(
    '/:id/invitaciones/:idInvitacion',
    {
      onRequest: manager,
      schema: {
        summary: 'Revoca una invitación: su código deja de valer',
        tags: ['empresas'],
        security,
        params: InvitationParams,
        response: { 204: Type.Null({ description: 'Revocada' }), ...errors },
      },
    },
    async (request, reply) => {
      await revoke(app, signedIn(request), companyOf(request), request.params.idInvitacion);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/invitaciones/mias',
    {
      schema: {
        summary: 'Invitaciones pendientes al email de quien consulta',
        tags: ['empresas'],
        security,
        response: { 200: OwnInvitationList, ...errors },
      },
    },
    async (request) => invitationsFor(app, signedIn(request).user.email),
  );

  app.post(
    '/invitaciones/aceptar',
    {
      config: perIp,
      schema: {
        summary: 'Acepta una invitación al email de la cuenta, por su código o por su id',
        description:
          'Un código incorrecto, vencido o revocado, o una cuenta de otro email: 400 `INVITACION_INVALIDA`, la misma ' +
          'respuesta; 5 códigos incorrectos anulan el de la invitación (hasta que se reenvíe).',
        tags: ['empresas'],
        security,
        body: AcceptBody,
        response: { 200: Accepted, 429: ErrorRef, ...errors },
      },
    },
    async (request) => {
      const { user } = signedIn(request);
      const body = request.body;
      const input =
        'codigo' in body
          ? { codigo: body.codigo, email: body.email === undefined ? undefined : normalizeEmail(body.email) }
          : { idInvitacion: body.idInvitacion };
      return accept(app, user, input, request.ip);
    },
  );

  app.post(
    '/invitaciones/:idInvitacion/rechazar',
    {
      schema: {
        summary: 'Rechaza una invitación al email de la cuenta',
        tags: ['empresas'],
        security,
        params: OwnInvitationParams,
        response: { 204: Type.Null({ description: 'Rechazada' }), ...errors },
      },
    },
    async (request, reply) => {
      await decline(app, signedIn(request).user, request.params.idInvitacion);
      return reply.code(204).send(null);
    },
  );
};

export default routes;
