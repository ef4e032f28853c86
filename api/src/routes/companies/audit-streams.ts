import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  createAuditStream,
  deleteAuditStream,
  getAuditStream,
  listAuditStreams,
  streamForTest,
  testDocument,
  updateAuditStream,
} from '../../domain/audit-streams/destinations.js';
import { auditStreamMessages as M } from '../../domain/audit-streams/messages.js';
import { send } from '../../domain/audit-streams/transports.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { companyOf } from '../../plugins/app/company-access.js';
import {
  AuditStream,
  AuditStreamList,
  AuditStreamParams,
  AuditStreamTestResult,
  CreateAuditStreamBody,
  UpdateAuditStreamBody,
} from '../../schemas/audit-streams.js';
import { adminErrors, bearerSecurity as security, ErrorRef } from '../../schemas/common.js';
import { CompanyParams } from '../../schemas/companies.js';

const tags = ['empresas'];
const errors = { ...adminErrors, 404: ErrorRef };

/**
 * The company's SIEM destinations (docs/registro-para-siem.md), for its owners and administrators and platform
 * administrators: where its activity log is streamed, each destination's state, a test event.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const manager = app.companyRole('administrador');
  const deps = app.auditStreams.destinations;

  app.post(
    '/:id/flujos-auditoria',
    {
      onRequest: manager,
      schema: {
        summary:
          'Añade un destino del registro de actividad: syslog sobre TLS (RFC 5424/5425) o HTTPS (NDJSON o Splunk HEC). El secreto y la clave no se vuelven a mostrar',
        tags,
        security,
        params: CompanyParams,
        body: CreateAuditStreamBody,
        response: { 201: AuditStream, 409: ErrorRef, ...errors },
      },
    },
    async (request, reply) => {
      const created = await createAuditStream(deps, signedIn(request), companyOf(request).companyId, request.body);
      app.auditStreams.worker.wake();
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/:id/flujos-auditoria',
    {
      onRequest: manager,
      schema: {
        summary: 'Los destinos del registro de actividad, cada uno con lo entregado, el retraso y el último error',
        tags,
        security,
        params: CompanyParams,
        response: { 200: AuditStreamList, ...errors },
      },
    },
    async (request) => ({ data: await listAuditStreams(deps, companyOf(request).companyId) }),
  );

  app.get(
    '/:id/flujos-auditoria/:idFlujo',
    {
      onRequest: manager,
      schema: {
        summary: 'Un destino del registro de actividad y su estado',
        tags,
        security,
        params: AuditStreamParams,
        response: { 200: AuditStream, ...errors },
      },
    },
    async (request) => getAuditStream(deps, companyOf(request).companyId, request.params.idFlujo),
  );

  app.patch(
    '/:id/flujos-auditoria/:idFlujo',
    {
      onRequest: manager,
      schema: {
        summary: "Cambia un destino, lo pausa o lo reanuda (estado 'activo': envía lo que faltó, en orden)",
        tags,
        security,
        params: AuditStreamParams,
        body: UpdateAuditStreamBody,
        response: { 200: AuditStream, ...errors },
      },
    },
    async (request) => {
      const { companyId } = companyOf(request);
      const updated = await updateAuditStream(deps, signedIn(request), companyId, request.params.idFlujo, request.body);
      app.auditStreams.worker.wake();
      return updated;
    },
  );

  app.delete(
    '/:id/flujos-auditoria/:idFlujo',
    {
      onRequest: manager,
      schema: {
        summary: 'Borra un destino: no se le envía nada más',
        tags,
        security,
        params: AuditStreamParams,
        response: { 204: Type.Null({ description: 'Borrado' }), ...errors },
      },
    },
    async (request, reply) => {
      await deleteAuditStream(deps, signedIn(request), companyOf(request).companyId, request.params.idFlujo);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/:id/flujos-auditoria/:idFlujo/prueba',
    {
      onRequest: manager,
      schema: {
        summary: 'Envía un evento de prueba al destino y responde lo que dijo el receptor',
        tags,
        security,
        params: AuditStreamParams,
        response: { 200: AuditStreamTestResult, ...errors },
      },
    },
    async (request) => {
      const { companyId } = companyOf(request);
      const { target, companyName } = await streamForTest(deps, companyId, request.params.idFlujo);
      const result = await send(
        target,
        [testDocument(signedIn(request).user, companyId, companyName, new Date(app.clock()))],
        {
          privateNetwork: deps.privateNetwork,
          timeoutMs: app.config.partnerEventsTimeoutMs,
          signal: new AbortController().signal,
          hostname: new URL(app.config.apiPublicUrl).hostname,
        },
      );
      return result.ok
        ? { entregado: true, mensaje: M.testAccepted(result.detail) }
        : { entregado: false, mensaje: M.testFailed(result.error) };
    },
  );
};

export default routes;
