import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { companyDetail, updateCompanySettings } from '../../domain/companies/companies.js';
import { listLicences } from '../../domain/companies/licences.js';
import { methodOrNull, signedInElsewhere, wayOfSession } from '../../domain/sign-in-limits/company-rules.js';
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
      const company = await companyDetail(app.db, access.companyId, access.role);
      // The caller's address and sign-in method: the panel warns before a rule that would lock them out.
      const auth = signedIn(request);
      return {
        ...company,
        tuAcceso: {
          direccion: request.ip,
          metodo: methodOrNull(auth.method),
          deOtraEmpresa: signedInElsewhere(wayOfSession(auth), access.companyId),
        },
      };
    },
  );

  app.patch(
    '/:id/ajustes',
    {
      onRequest: manager,
      schema: {
        summary:
          'Cambia los ajustes de la empresa: el alta por dominio, si exige un segundo factor y las reglas de sus miembros (redes, métodos de inicio de sesión, duración e inactividad de las sesiones)',
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
