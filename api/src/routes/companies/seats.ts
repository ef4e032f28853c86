import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { type AuditAction, listAudit } from '../../domain/audit/log.js';
import { seatReport, seatReportCsv } from '../../domain/companies/report.js';
import { assignSeat, listSeats, removeSeat } from '../../domain/companies/seats.js';
import { companyOf } from '../../plugins/app/company-access.js';
import { AuditEntry } from '../../schemas/admin.js';
import { adminErrors, ErrorRef, Page, bearerSecurity as security } from '../../schemas/common.js';
import {
  CompanyAuditQuery,
  EcsPage,
  CompanyParams,
  Seat,
  SeatBody,
  SeatListQuery,
  SeatPage,
  SeatParams,
  SeatReport,
} from '../../schemas/company-members.js';
import { actorOf } from './members.js';

const errors = { ...adminErrors, 404: ErrorRef, 409: ErrorRef };

/**
 * The company's seats, its seat report (also as CSV) and its own audit log, for its owners and administrators (and
 * platform administrators).
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const manager = app.companyRole('administrador');

  app.post(
    '/:id/puestos',
    {
      onRequest: manager,
      schema: {
        summary:
          'Asigna a un miembro un puesto de la licencia de una app; 409 SIN_PUESTOS cuando no quedan, también con peticiones simultáneas',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        body: SeatBody,
        response: { 201: Seat, ...errors },
      },
    },
    async (request, reply) => {
      const { companyId } = companyOf(request);
      const { idUsuario, idApp } = request.body;
      const seat = await app.db.transaction((tx) =>
        assignSeat(tx, actorOf(request), companyId, idUsuario, idApp, new Date()),
      );
      return reply.code(201).send(seat);
    },
  );

  app.delete(
    '/:id/puestos/:idUsuario/:idApp',
    {
      onRequest: manager,
      schema: {
        summary: 'Retira el puesto de una app a un miembro',
        tags: ['empresas'],
        security,
        params: SeatParams,
        response: { 204: Type.Null({ description: 'Puesto retirado' }), ...errors },
      },
    },
    async (request, reply) => {
      const { companyId } = companyOf(request);
      const { idUsuario, idApp } = request.params;
      await app.db.transaction((tx) => removeSeat(tx, actorOf(request), companyId, idUsuario, idApp));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/:id/puestos',
    {
      onRequest: manager,
      schema: {
        summary: 'Puestos asignados por páginas con cursor (por app y persona), con filtros por app y parte del email',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        querystring: SeatListQuery,
        response: { 200: SeatPage, ...errors },
      },
    },
    async (request) => listSeats(app.db, companyOf(request).companyId, request.query),
  );

  app.get(
    '/:id/informe-puestos',
    {
      onRequest: manager,
      schema: {
        summary: 'Informe de puestos por app y plan: comprados, en uso, libres, excedidos y vencimiento',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        response: { 200: SeatReport, ...errors },
      },
    },
    async (request) => seatReport(app.db, companyOf(request).companyId, new Date()),
  );

  app.get(
    '/:id/informe-puestos.csv',
    {
      onRequest: manager,
      schema: {
        summary:
          'El informe de puestos como CSV (UTF-8 con BOM, separado por punto y coma como lo abre Excel en español, cabecera en español) para descargar',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        produces: ['text/csv'],
        response: { 200: Type.String({ description: 'text/csv' }), ...errors },
      },
    },
    async (request, reply) => {
      const { companyId } = companyOf(request);
      const csv = seatReportCsv(await seatReport(app.db, companyId, new Date()));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="puestos-${companyId}.csv"`)
        .send(csv);
    },
  );

  app.get(
    '/:id/auditoria',
    {
      onRequest: manager,
      schema: {
        summary:
          'Registro de actividad de la empresa: cambios de miembros, invitaciones, puestos, dominios y licencias',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        querystring: CompanyAuditQuery,
        response: { 200: Type.Union([Page(AuditEntry), EcsPage]), ...errors },
      },
    },
    async (request) => {
      const { page, limit, action, formato, desde } = request.query;
      if (formato === 'ecs') return app.auditStreams.feed(companyOf(request).companyId, desde, limit);
      return listAudit(app.db, {
        page,
        limit,
        action: action as AuditAction | undefined,
        companyId: companyOf(request).companyId,
      });
    },
  );
};

export default routes;
