import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listWaiting } from '../../domain/companies/directory-seats.js';
import { createRule, deleteRule, listRules } from '../../domain/companies/group-rules.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { companyOf } from '../../plugins/app/company-access.js';
import { adminErrors, bearerSecurity as security, ErrorRef } from '../../schemas/common.js';
import { CompanyParams } from '../../schemas/company-members.js';
import { GroupRuleBody, GroupRuleList, GroupRuleParams, WaitingList } from '../../schemas/scim.js';

const errors = { ...adminErrors, 404: ErrorRef, 409: ErrorRef };

/** The company's rules for its directory's groups, and who waits for a seat, for its owners and administrators. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const manager = app.companyRole('administrador');

  app.post(
    '/:id/grupos-directorio',
    {
      onRequest: manager,
      schema: {
        summary:
          'Une un grupo del directorio a puestos de una app (el plan de la licencia) y/o a un rol: quien está en el grupo los tiene',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        body: GroupRuleBody,
        response: { 201: Type.Object({ id: Type.Integer() }, { additionalProperties: false }), ...errors },
      },
    },
    async (request, reply) => {
      const created = await createRule(app.db, signedIn(request), companyOf(request).companyId, request.body);
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/:id/grupos-directorio',
    {
      onRequest: manager,
      schema: {
        summary: 'Las reglas de los grupos del directorio: el grupo, lo que da y cuántas personas tiene ahora',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        response: { 200: GroupRuleList, ...errors },
      },
    },
    async (request) => listRules(app.db, companyOf(request).companyId),
  );

  app.delete(
    '/:id/grupos-directorio/:idRegla',
    {
      onRequest: manager,
      schema: {
        summary:
          'Quita una regla: sus personas pierden lo que ningún otro grupo les da (los puestos dados a mano quedan)',
        tags: ['empresas'],
        security,
        params: GroupRuleParams,
        response: { 204: Type.Null({ description: 'Regla quitada' }), ...errors },
      },
    },
    async (request, reply) => {
      await deleteRule(app.db, signedIn(request), companyOf(request).companyId, request.params.idRegla);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/:id/grupos-directorio/esperando',
    {
      onRequest: manager,
      schema: {
        summary:
          'Quién espera un puesto que un grupo le da, por app y en el orden en que lo tomará (a lo sumo 1000 personas)',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        response: { 200: WaitingList, ...errors },
      },
    },
    async (request) => listWaiting(app.db, companyOf(request).companyId),
  );
};

export default routes;
