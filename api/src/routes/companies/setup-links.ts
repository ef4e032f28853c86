import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  createSetupLink,
  listSetupLinks,
  revokeSetupLink,
  setupLinkHours,
  setupLinkMessages,
} from '../../domain/companies/setup-links.js';
import { HttpError } from '../../lib/errors.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { companyOf } from '../../plugins/app/company-access.js';
import { adminErrors, bearerSecurity as security, ErrorRef } from '../../schemas/common.js';
import { CompanyParams } from '../../schemas/company-members.js';
import {
  CreatedSetupLink,
  CreateSetupLinkBody,
  SetupLinkList,
  SetupLinkParams,
} from '../../schemas/company-setup-links.js';

const errors = { ...adminErrors, 404: ErrorRef };

/**
 * The company's setup links for its IT (domain/companies/setup-links.ts): only one of its owners creates one, since
 * the link lives as long as its creator stays an owner; its owners (and platform administrators) list and revoke them.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const owner = app.companyRole('propietario');

  app.post(
    '/:id/enlaces-configuracion',
    {
      onRequest: owner,
      schema: {
        summary:
          'Crea un enlace de configuración para el equipo de TI de la empresa (dominio, acceso y directorio sin cuenta); su URL se muestra solo esta vez. Solo un propietario',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        body: CreateSetupLinkBody,
        response: { 201: CreatedSetupLink, ...errors },
      },
    },
    async (request, reply) => {
      const access = companyOf(request);
      if (access.role !== 'propietario') throw new HttpError(403, setupLinkMessages.ownerOnly, 'FORBIDDEN');
      const hours = request.body.horas ?? setupLinkHours.default;
      const created = await createSetupLink(app.db, signedIn(request), access.companyId, hours, app.config.portalUrl);
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/:id/enlaces-configuracion',
    {
      onRequest: owner,
      schema: {
        summary: 'Los enlaces de configuración de la empresa y su estado (nunca su secreto)',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        response: { 200: SetupLinkList, ...errors },
      },
    },
    async (request) => ({ data: await listSetupLinks(app.db, companyOf(request).companyId, new Date(app.clock())) }),
  );

  app.delete(
    '/:id/enlaces-configuracion/:idEnlace',
    {
      onRequest: owner,
      schema: {
        summary: 'Revoca un enlace de configuración: deja de abrir nada desde ese momento',
        tags: ['empresas'],
        security,
        params: SetupLinkParams,
        response: { 204: Type.Null({ description: 'Revocado' }), ...errors },
      },
    },
    async (request, reply) => {
      await revokeSetupLink(app.db, signedIn(request), companyOf(request).companyId, request.params.idEnlace);
      return reply.code(204).send(null);
    },
  );
};

export default routes;
