import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listRequests, requestLogOf } from '../../domain/companies/scim/requests.js';
import { tokenMemoryOf } from '../../domain/companies/scim/token-memory.js';
import { createToken, listTokens, revokeToken } from '../../domain/companies/scim/tokens.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { companyOf } from '../../plugins/app/company-access.js';
import { adminErrors, bearerSecurity as security, ErrorRef } from '../../schemas/common.js';
import { CompanyParams } from '../../schemas/company-members.js';
import {
  CreatedScimToken,
  CreateScimTokenBody,
  ScimLog,
  ScimLogQuery,
  ScimTokenList,
  ScimTokenParams,
} from '../../schemas/scim.js';

const errors = { ...adminErrors, 404: ErrorRef };

/** The company's directory (SCIM): its bearer tokens (owners) and its request log (administrators). */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const owner = app.companyRole('propietario');
  const manager = app.companyRole('administrador');
  const urlBase = `${app.config.apiPublicUrl.replace(/\/+$/, '')}/scim/v2`;

  app.post(
    '/:id/scim/tokens',
    {
      onRequest: owner,
      schema: {
        summary: 'Crea un token del directorio (SCIM 2.0) de la empresa; se muestra solo esta vez',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        body: CreateScimTokenBody,
        response: { 201: CreatedScimToken, ...errors },
      },
    },
    async (request, reply) => {
      const { companyId } = companyOf(request);
      const created = await createToken(app.db, signedIn(request), companyId, request.body.descripcion?.trim() ?? '');
      return reply.code(201).send({ ...created, urlBase });
    },
  );

  app.get(
    '/:id/scim/tokens',
    {
      onRequest: manager,
      schema: {
        summary: 'Los tokens del directorio de la empresa (su prefijo, nunca el token)',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        response: { 200: ScimTokenList, ...errors },
      },
    },
    async (request) => ({ data: await listTokens(app.db, companyOf(request).companyId), urlBase }),
  );

  app.delete(
    '/:id/scim/tokens/:tokenId',
    {
      onRequest: owner,
      schema: {
        summary: 'Revoca un token del directorio: sus peticiones reciben 401 desde ese momento',
        tags: ['empresas'],
        security,
        params: ScimTokenParams,
        response: { 204: Type.Null({ description: 'Revocado' }), ...errors },
      },
    },
    async (request, reply) => {
      await revokeToken(app.db, signedIn(request), companyOf(request).companyId, request.params.tokenId);
      // This instance forgets at once (the others when the revocation's notification arrives: migration 0039).
      tokenMemoryOf(app.sessionState).forgetAll();
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/:id/scim/registro',
    {
      onRequest: manager,
      schema: {
        summary:
          'Las últimas peticiones del directorio de la empresa (se guardan las 1000 últimas), la más reciente primero',
        tags: ['empresas'],
        security,
        params: CompanyParams,
        querystring: ScimLogQuery,
        response: { 200: ScimLog, ...errors },
      },
    },
    async (request) => {
      // What this instance answered and has not written yet goes first.
      await requestLogOf(app.db).flush();
      return { data: await listRequests(app.db, companyOf(request).companyId, request.query.limit) };
    },
  );
};

export default routes;
