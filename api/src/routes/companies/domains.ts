import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  claimDomain,
  confirmDomain,
  listDomains,
  removeDomain,
  verifyDomainByDns,
} from '../../domain/companies/domains.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { companyOf } from '../../plugins/app/company-access.js';
import { adminErrors, bearerSecurity as security, ErrorRef } from '../../schemas/common.js';
import { ClaimDomainBody, CompanyDomain, CompanyDomainParams } from '../../schemas/company-domains.js';

const tags = ['empresas'];
const CompanyParams = Type.Object(
  { id: Type.Integer({ minimum: 1, maximum: 2147483647 }) },
  { additionalProperties: false },
);

/**
 * The company's email domains, for its owners and administrators (and platform administrators): claimed, then proved
 * by a DNS TXT record or a platform administrator's confirmation; a person who verifies an address at a proved domain
 * joins the company (domain/companies/domains.ts).
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const manager = app.companyRole('administrador');

  app.get(
    '/:id/dominios',
    {
      onRequest: manager,
      schema: {
        summary: 'Los dominios de la empresa, probados o no, con el registro TXT que los prueba',
        tags,
        security,
        params: CompanyParams,
        response: { 200: Type.Array(CompanyDomain), 404: ErrorRef, ...adminErrors },
      },
    },
    async (request) => listDomains(app.db, companyOf(request).companyId),
  );

  app.post(
    '/:id/dominios',
    {
      onRequest: manager,
      schema: {
        summary:
          'Reclama un dominio para la empresa y da el registro TXT que debe publicar; no un correo gratuito ni un sufijo público (400 DOMINIO_PUBLICO), ni uno que otra empresa ya probó (409 DOMINIO_DE_OTRA_EMPRESA)',
        tags,
        security,
        params: CompanyParams,
        body: ClaimDomainBody,
        response: { 201: CompanyDomain, 404: ErrorRef, 409: ErrorRef, ...adminErrors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await claimDomain(app.db, signedIn(request), companyOf(request).companyId, request.body.dominio)),
  );

  app.post(
    '/:id/dominios/:dominio/verificar',
    {
      onRequest: manager,
      // Each try asks DNS for the TXT record (plugins/app/outbound-limits.ts).
      preHandler: app.outboundLimit((request) => `empresa:${companyOf(request).companyId}`),
      schema: {
        summary:
          'Prueba el dominio por su registro TXT _portal-verificacion.<dominio> (409 REGISTRO_TXT_NO_ENCONTRADO; 503 si el DNS no responde)',
        tags,
        security,
        params: CompanyDomainParams,
        response: { 200: CompanyDomain, 404: ErrorRef, 409: ErrorRef, ...adminErrors },
      },
    },
    async (request) =>
      verifyDomainByDns(
        app.db,
        app.domainLookup,
        signedIn(request),
        companyOf(request).companyId,
        request.params.dominio,
      ),
  );

  app.post(
    '/:id/dominios/:dominio/confirmar',
    {
      onRequest: manager,
      schema: {
        summary: 'Un administrador de la plataforma confirma que el dominio es de la empresa, sin el registro TXT',
        tags,
        security,
        params: CompanyDomainParams,
        response: { 200: CompanyDomain, 404: ErrorRef, 409: ErrorRef, ...adminErrors },
      },
    },
    async (request) => confirmDomain(app.db, signedIn(request), companyOf(request), request.params.dominio),
  );

  app.delete(
    '/:id/dominios/:dominio',
    {
      onRequest: manager,
      schema: {
        summary: 'Quita un dominio de la empresa; quienes entraron por él siguen siendo miembros',
        tags,
        security,
        params: CompanyDomainParams,
        response: { 204: Type.Null(), 404: ErrorRef, ...adminErrors },
      },
    },
    async (request, reply) => {
      await removeDomain(app.db, signedIn(request), companyOf(request).companyId, request.params.dominio);
      return reply.code(204).send(null);
    },
  );
};

export default routes;
