import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { companyNotFound, createCompany, listCompanies, updateCompany } from '../../domain/companies/companies.js';
import { createLicence, updateLicence } from '../../domain/companies/licences.js';
import { companyStatus } from '../../domain/companies/access.js';
import { removeConnection, saveConnection, saveSamlConnection } from '../../domain/companies/sso/connections.js';
import { samlSpAddresses } from '../../domain/companies/sso/saml-metadata.js';
import { maxMetadataBytes } from '../../lib/saml/xml.js';
import { connectionSecretKey } from '../../domain/companies/sso/secret.js';
import { SsoConnectionAnswer, SsoConnectionBody } from '../../schemas/company-sso.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { adminErrors, ErrorRef, Page, bearerSecurity as security } from '../../schemas/common.js';
import {
  Company,
  CompanyAppParams,
  CompanyCreated,
  CompanyListItem,
  CompanyListQuery,
  CompanyParams,
  CreateCompanyBody,
  Licence,
  LicenceBody,
  LicenceChangeBody,
  UpdateCompanyBody,
} from '../../schemas/companies.js';

const tags = ['empresas'];

/** Platform administrators' calls about customer companies, under /admin/empresas: the companies and their licences. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '',
    {
      schema: {
        summary: 'Las empresas, las más recientes primero, con sus miembros activos y licencias',
        tags,
        security,
        querystring: CompanyListQuery,
        response: { 200: Page(CompanyListItem), ...adminErrors },
      },
    },
    async (request) => listCompanies(app.db, request.query),
  );

  app.post(
    '',
    {
      schema: {
        summary: 'Crea una empresa (activa); el nombre no puede repetirse, sin distinguir mayúsculas',
        tags,
        security,
        body: CreateCompanyBody,
        response: { 201: CompanyCreated, 409: ErrorRef, ...adminErrors },
      },
    },
    async (request, reply) => reply.code(201).send(await createCompany(app.db, signedIn(request), request.body)),
  );

  app.patch(
    '/:id',
    {
      schema: {
        summary: 'Cambia el nombre de una empresa, la suspende o la reactiva',
        tags,
        security,
        params: CompanyParams,
        body: UpdateCompanyBody,
        response: { 200: Company, 404: ErrorRef, 409: ErrorRef, ...adminErrors },
      },
    },
    async (request) => updateCompany(app.db, signedIn(request), request.params.id, request.body),
  );

  app.post(
    '/:id/licencias',
    {
      schema: {
        summary: 'Vende a la empresa una licencia de una app: un plan, un número de puestos y un vencimiento',
        tags,
        security,
        params: CompanyParams,
        body: LicenceBody,
        response: { 201: Licence, 404: ErrorRef, 409: ErrorRef, ...adminErrors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createLicence(app.db, signedIn(request), request.params.id, request.body)),
  );

  app.put(
    '/:id/licencias/:idApp',
    {
      schema: {
        summary:
          'Cambia el plan, los puestos o el vencimiento de una licencia; bajar los puestos por debajo de los asignados no retira ninguno (ver «aviso»)',
        tags,
        security,
        params: CompanyAppParams,
        body: LicenceChangeBody,
        response: { 200: Licence, 404: ErrorRef, ...adminErrors },
      },
    },
    async (request) => updateLicence(app.db, signedIn(request), request.params.id, request.params.idApp, request.body),
  );

  // The company's own sign-in, set by a platform administrator: the listed domains are proved for the company by this
  // call (domain/companies/sso/connections.ts).
  const providerSecret = connectionSecretKey(app.signingKey.privateKey);
  const redirectUri = `${app.config.apiPublicUrl}/auth/empresa/callback`;
  const existing = async (companyId: number) => {
    const status = await companyStatus(app.db, companyId);
    if (!status) throw companyNotFound();
    return status;
  };

  app.put(
    '/:id/proveedor',
    {
      // A SAML provider's metadata (AD FS's is some 60 KiB) is taken up to its own bound, JSON's escapes beside.
      bodyLimit: maxMetadataBytes + 64 * 1024,
      preHandler: app.outboundLimit((request) => `empresa:${(request.params as { id: number }).id}`),
      schema: {
        summary:
          'Conecta o cambia el acceso propio de una empresa (OpenID Connect, o SAML con `tipo: saml` y sus metadatos); prueba para ella los dominios indicados (409 DOMINIO_DE_OTRA_EMPRESA si otra ya probó uno)',
        tags,
        security,
        params: CompanyParams,
        body: SsoConnectionBody,
        response: { 200: SsoConnectionAnswer, 404: ErrorRef, 409: ErrorRef, ...adminErrors },
      },
    },
    async (request) => {
      const companyId = request.params.id;
      const status = await existing(companyId);
      const access = { companyId, platform: true as const, role: null, status };
      const body = request.body;
      if (body.tipo === 'saml') {
        await saveSamlConnection(app.db, signedIn(request), access, body, app.config.companyProviderPrivateNetwork);
        return samlSpAddresses(app.config.apiPublicUrl, companyId);
      }
      await saveConnection(
        app.db,
        providerSecret,
        signedIn(request),
        access,
        body,
        app.config.companyProviderPrivateNetwork,
      );
      return { redirectUri };
    },
  );

  app.delete(
    '/:id/proveedor',
    {
      schema: {
        summary: 'Quita el acceso propio de una empresa; los vínculos de sus personas se conservan',
        tags,
        security,
        params: CompanyParams,
        response: { 204: Type.Null(), 404: ErrorRef, ...adminErrors },
      },
    },
    async (request, reply) => {
      await existing(request.params.id);
      await removeConnection(app.db, signedIn(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};

export default routes;
