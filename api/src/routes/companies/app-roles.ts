import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { companyAppRoles, companyMemberRoles, setCompanyMemberRoles } from '../../domain/apps-and-plans/app-roles.js';
import { companyOf } from '../../plugins/app/company-access.js';
import { signedIn } from '../../plugins/app/authentication.js';
import {
  CompanyAppRoles,
  HeldRoles,
  MemberAppRoles,
  MemberAppRolesParams,
  MemberRolesParams,
  RolesBody,
} from '../../schemas/app-roles.js';
import { CompanyParams } from '../../schemas/company-members.js';
import { adminErrors, ErrorRef, bearerSecurity as security } from '../../schemas/common.js';

const errors = { ...adminErrors, 404: ErrorRef, 409: ErrorRef };

/** The roles a company gives its members in the apps whose seats they hold, for its owners and administrators. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const manager = app.companyRole('administrador');

  app.put(
    '/:id/miembros/:idUsuario/roles-app/:idApp',
    {
      onRequest: manager,
      schema: {
        summary:
          'Los roles de una app que la empresa da a un miembro con puesto de ella (reemplaza los anteriores); 409 SIN_PUESTO, 400 ROL_DESCONOCIDO',
        tags: ['empresas'],
        security,
        params: MemberAppRolesParams,
        body: RolesBody,
        response: { 200: HeldRoles, ...errors },
      },
    },
    async (request) => {
      const { companyId } = companyOf(request);
      const { idUsuario, idApp } = request.params;
      return app.db.transaction((tx) =>
        setCompanyMemberRoles(tx, signedIn(request), companyId, idUsuario, idApp, request.body.roles),
      );
    },
  );

  app.get(
    '/:id/roles-app',
    {
      onRequest: manager,
      schema: {
        summary:
          'Los roles de cada app de la que la empresa tiene licencia: los que puede dar a mano o con un grupo del directorio',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        response: { 200: CompanyAppRoles, ...errors },
      },
    },
    async (request) => ({ data: await companyAppRoles(app.db, companyOf(request).companyId) }),
  );

  app.get(
    '/:id/miembros/:idUsuario/roles-app',
    {
      onRequest: manager,
      schema: {
        summary: 'Cada app de la que el miembro tiene puesto en la empresa, con los roles que la empresa le dio',
        tags: ['empresas'],
        security,
        params: MemberRolesParams,
        response: { 200: MemberAppRoles, ...errors },
      },
    },
    async (request) => ({
      data: await companyMemberRoles(app.db, companyOf(request).companyId, request.params.idUsuario),
    }),
  );
};

export default routes;
