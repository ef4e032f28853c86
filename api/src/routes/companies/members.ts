import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  approveMember,
  type CompanyActor,
  changeMemberRole,
  getMember,
  listMembers,
  removeMember,
} from '../../domain/companies/members.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { companyOf } from '../../plugins/app/company-access.js';
import { adminErrors, bearerSecurity as security, ErrorRef } from '../../schemas/common.js';
import {
  CompanyParams,
  Member,
  MemberListQuery,
  MemberPage,
  MemberParams,
  RoleBody,
} from '../../schemas/company-members.js';

/** Who acts, for the domain: how they reached the company and who they are in the audit log. */
export const actorOf = (request: FastifyRequest): CompanyActor => ({
  access: companyOf(request),
  audit: signedIn(request),
});

const errors = { ...adminErrors, 404: ErrorRef, 409: ErrorRef };

/** The company's members, for its owners and administrators (and platform administrators). */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const manager = app.companyRole('administrador');

  app.get(
    '/:id/miembros',
    {
      onRequest: manager,
      schema: {
        summary: 'Miembros de la empresa por páginas con cursor, con filtro por parte del email',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        querystring: MemberListQuery,
        response: { 200: MemberPage, ...errors },
      },
    },
    async (request) => listMembers(app.db, companyOf(request).companyId, request.query),
  );

  app.patch(
    '/:id/miembros/:idUsuario',
    {
      onRequest: manager,
      schema: {
        summary:
          "Cambia el rol de un miembro; solo un propietario da o quita 'propietario', y el último no puede dejar de serlo (409 ULTIMO_PROPIETARIO)",
        tags: ['empresas'],
        security,
        params: MemberParams,
        body: RoleBody,
        response: { 200: Member, ...errors },
      },
    },
    async (request) => {
      const { companyId } = companyOf(request);
      const { idUsuario } = request.params;
      await app.db.transaction((tx) => changeMemberRole(tx, actorOf(request), companyId, idUsuario, request.body.rol));
      return getMember(app.db, companyId, idUsuario);
    },
  );

  app.delete(
    '/:id/miembros/:idUsuario',
    {
      onRequest: manager,
      schema: {
        summary: 'Quita a una persona de la empresa; sus puestos vuelven a las licencias',
        tags: ['empresas'],
        security,
        params: MemberParams,
        response: { 204: Type.Null({ description: 'Quitado de la empresa' }), ...errors },
      },
    },
    async (request, reply) => {
      const { companyId } = companyOf(request);
      await app.db.transaction((tx) => removeMember(tx, actorOf(request), companyId, request.params.idUsuario));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/:id/miembros/:idUsuario/aprobar',
    {
      onRequest: manager,
      schema: {
        summary: 'Aprueba a una persona que espera tras unirse por el dominio de su email',
        tags: ['empresas'],
        security,
        params: MemberParams,
        response: { 200: Member, ...errors },
      },
    },
    async (request) => {
      const { companyId } = companyOf(request);
      const { idUsuario } = request.params;
      await app.db.transaction((tx) => approveMember(tx, actorOf(request), companyId, idUsuario));
      return getMember(app.db, companyId, idUsuario);
    },
  );
};

export default routes;
