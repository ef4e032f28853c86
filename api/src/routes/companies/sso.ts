import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { connectionView, removeConnection, saveConnection } from '../../domain/companies/sso/connections.js';
import { connectionSecretKey } from '../../domain/companies/sso/secret.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { companyOf } from '../../plugins/app/company-access.js';
import { adminErrors, bearerSecurity as security, ErrorRef } from '../../schemas/common.js';
import {
  SsoConnection,
  SsoConnectionBody,
  SsoConnectionParams,
  SsoConnectionSaved,
} from '../../schemas/company-sso.js';

const tags = ['empresas'];

/**
 * The company's own sign-in (its OpenID Connect provider), for its owners (and platform administrators): the domains
 * it answers for must be ones the company has proved; the client secret is sealed and never shown again
 * (domain/companies/sso/connections.ts). Its administrators read it, with the last failure of a sign-in.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const secretKey = connectionSecretKey(app.signingKey.privateKey);
  const redirectUri = `${app.config.apiPublicUrl}/auth/empresa/callback`;

  app.get(
    '/:id/proveedor',
    {
      onRequest: app.companyRole('administrador'),
      schema: {
        summary:
          'El acceso propio de la empresa (su proveedor OpenID Connect), sin el secreto; 404 SIN_PROVEEDOR si no tiene',
        tags,
        security,
        params: SsoConnectionParams,
        response: { 200: SsoConnection, 404: ErrorRef, ...adminErrors },
      },
    },
    async (request) => connectionView(app.db, companyOf(request).companyId, redirectUri),
  );

  // Before connecting anything: the company's IT registers this address with its provider to get the client's id
  // and secret, so it is shown first, whether or not a provider is connected.
  app.get(
    '/:id/proveedor/redireccion',
    {
      onRequest: app.companyRole('administrador'),
      schema: {
        summary: 'La dirección de vuelta que hay que registrar en el proveedor de la empresa, antes de conectarlo',
        tags,
        security,
        params: SsoConnectionParams,
        response: { 200: SsoConnectionSaved, ...adminErrors },
      },
    },
    async () => ({ redirectUri }),
  );

  app.put(
    '/:id/proveedor',
    {
      onRequest: app.companyRole('propietario'),
      // Saving reads the provider's configuration at the address typed (plugins/app/outbound-limits.ts).
      preHandler: app.outboundLimit((request) => `empresa:${companyOf(request).companyId}`),
      schema: {
        summary:
          'Conecta o cambia el acceso propio de la empresa: solo dominios ya probados (409 DOMINIO_NO_VERIFICADO); lee su configuración antes de guardar (400 PROVEEDOR_INALCANZABLE)',
        tags,
        security,
        params: SsoConnectionParams,
        body: SsoConnectionBody,
        response: { 200: SsoConnectionSaved, 404: ErrorRef, 409: ErrorRef, ...adminErrors },
      },
    },
    async (request) => {
      await saveConnection(
        app.db,
        secretKey,
        signedIn(request),
        companyOf(request),
        request.body,
        app.config.companyProviderPrivateNetwork,
      );
      return { redirectUri };
    },
  );

  app.delete(
    '/:id/proveedor',
    {
      onRequest: app.companyRole('propietario'),
      schema: {
        summary: 'Quita el acceso propio de la empresa; los vínculos de sus personas se conservan',
        tags,
        security,
        params: SsoConnectionParams,
        response: { 204: Type.Null(), 404: ErrorRef, ...adminErrors },
      },
    },
    async (request, reply) => {
      await removeConnection(app.db, signedIn(request), companyOf(request).companyId);
      return reply.code(204).send(null);
    },
  );
};

export default routes;
