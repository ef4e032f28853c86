import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { companyDetail, updateCompanySettings } from '../../domain/companies/companies.js';
import { listLicences } from '../../domain/companies/licences.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { companyOf } from '../../plugins/app/company-access.js';
import { adminErrors, ErrorRef, bearerSecurity as security } from '../../schemas/common.js';
import { Company, CompanyParams, CompanySettingsBody, Licence } from '../../schemas/companies.js';

const tags = ['empresas'];

/**
 * The company itself, for its owners and administrators (and platform administrators): what it is, its settings and
 * its licences, each read with the seats in use and what the company must know about them.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const manager = app.companyRole('administrador');

  app.get(
    '/:id',
    {
      onRequest: manager,
      schema: {
        summary: 'La empresa: su nombre, estado, ajustes, miembros activos y el rol de quien consulta',
        tags,
        security,
        params: CompanyParams,
        response: { 200: Company, 404: ErrorRef, ...adminErrors },
      },
    },
    async (request) => {
      const access = companyOf(request);
      return companyDetail(app.db, access.companyId, access.role);
    },
  );

  app.patch(
    '/:id/ajustes',
    {
      onRequest: manager,
      schema: {
        summary: 'Cambia los ajustes de la empresa: el alta por dominio y si exige un segundo factor a sus miembros',
        tags,
        security,
        params: CompanyParams,
        body: CompanySettingsBody,
        response: { 200: Company, 404: ErrorRef, ...adminErrors },
      },
    },
    async (request) => {
      const access = companyOf(request);
      return updateCompanySettings(app.db, signedIn(request), access.companyId, access.role, request.body);
    },
  );

  app.get(
    '/:id/licencias',
    {
      onRequest: manager,
      schema: {
        summary:
          'Las licencias de la empresa: puestos comprados, en uso, libres, asignados de más y vencimiento, con un aviso cuando hay algo que hacer',
        tags,
        security,
        params: CompanyParams,
        response: { 200: Type.Array(Licence), 404: ErrorRef, ...adminErrors },
      },
    },
    async (request) => listLicences(app.db, companyOf(request).companyId),
  );
};

export default routes;
