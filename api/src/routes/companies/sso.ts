import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { connectionView, removeConnection } from '../../domain/companies/sso/connections.js';
import { companyRedirectUri, providerSaveDeps, saveProvider } from '../../domain/companies/sso/save.js';
import { samlSpAddresses } from '../../domain/companies/sso/saml-metadata.js';
import { maxMetadataBytes } from '../../lib/saml/xml.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { companyOf } from '../../plugins/app/company-access.js';
import { adminErrors, bearerSecurity as security, ErrorRef } from '../../schemas/common.js';
import {
  SsoAddresses,
  SsoConnection,
  SsoConnectionAnswer,
  SsoConnectionBody,
  SsoConnectionParams,
} from '../../schemas/company-sso.js';

const tags = ['empresas'];

/**
 * The company's own sign-in (its OpenID Connect or SAML provider), for its owners (and platform administrators): the
 * domains it answers for must be ones the company has proved; an OIDC client secret is sealed and never shown again
 * (domain/companies/sso/connections.ts). Its administrators read it, with the last failure of a sign-in.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const saml = (companyId: number) => samlSpAddresses(app.config.apiPublicUrl, companyId);
  const redirectUri = companyRedirectUri(app.config.apiPublicUrl);
  const deps = providerSaveDeps(app.db, app.signingKey.privateKey, app.config);

  app.get(
    '/:id/proveedor',
    {
      onRequest: app.companyRole('administrador'),
      schema: {
        summary:
          'El acceso propio de la empresa (`tipo` oidc: su proveedor OpenID Connect, sin el secreto; `tipo` saml: su proveedor SAML y los certificados de sus metadatos); 404 SIN_PROVEEDOR si no tiene',
        tags,
        security,
        params: SsoConnectionParams,
        response: { 200: SsoConnection, 404: ErrorRef, ...adminErrors },
      },
    },
    async (request) => {
      const { companyId } = companyOf(request);
      return connectionView(app.db, companyId, redirectUri, saml(companyId));
    },
  );

  // Before connecting anything: the company's IT registers these addresses with its provider (the OIDC client's
  // return address, or the SAML service provider's entity ID and ACS), so they are shown first.
  app.get(
    '/:id/proveedor/redireccion',
    {
      onRequest: app.companyRole('administrador'),
      schema: {
        summary:
          'Las direcciones que hay que registrar en el proveedor de la empresa antes de conectarlo: la de vuelta (OpenID Connect) y las del proveedor de servicio SAML',
        tags,
        security,
        params: SsoConnectionParams,
        response: { 200: SsoAddresses, ...adminErrors },
      },
    },
    async (request) => ({ redirectUri, saml: saml(companyOf(request).companyId) }),
  );

  app.put(
    '/:id/proveedor',
    {
      // A SAML provider's metadata (AD FS's is some 60 KiB) is taken up to its own bound, JSON's escapes beside.
      bodyLimit: maxMetadataBytes + 64 * 1024,
      onRequest: app.companyRole('propietario'),
      // Saving reads the provider's configuration at the address typed (plugins/app/outbound-limits.ts).
      preHandler: app.outboundLimit((request) => `empresa:${companyOf(request).companyId}`),
      schema: {
        summary:
          'Conecta o cambia el acceso propio de la empresa: solo dominios ya probados (409 DOMINIO_NO_VERIFICADO). OpenID Connect: lee su configuración antes de guardar (400 PROVEEDOR_INALCANZABLE). SAML (`tipo: saml`): lee sus metadatos (400 METADATOS_SAML_INVALIDOS, SOLICITUDES_FIRMADAS) y responde el proveedor de servicio del portal',
        tags,
        security,
        params: SsoConnectionParams,
        body: SsoConnectionBody,
        response: { 200: SsoConnectionAnswer, 404: ErrorRef, 409: ErrorRef, ...adminErrors },
      },
    },
    async (request) => saveProvider(deps, signedIn(request), companyOf(request), request.body),
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
