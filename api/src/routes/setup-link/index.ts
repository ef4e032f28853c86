import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { CompanyAccess } from '../../domain/companies/access.js';
import { claimDomain, listDomains, verifyDomainByDns } from '../../domain/companies/domains.js';
import { createToken } from '../../domain/companies/scim/tokens.js';
import {
  recordSetupLinkUse,
  type SetupLinkCaller,
  setupLinkActor,
  setupLinkCaller,
} from '../../domain/companies/setup-links.js';
import { connectionView } from '../../domain/companies/sso/connections.js';
import { samlSpAddresses } from '../../domain/companies/sso/saml-metadata.js';
import { companyRedirectUri, providerSaveDeps, saveProvider } from '../../domain/companies/sso/save.js';
import { HttpError } from '../../lib/errors.js';
import { maxMetadataBytes } from '../../lib/saml/xml.js';
import { bearerSecurity as security, commonErrors, ErrorRef } from '../../schemas/common.js';
import { ClaimDomainBody, CompanyDomain } from '../../schemas/company-domains.js';
import {
  ConnectionTestResult,
  ConnectionTestResultBody,
  ConnectionTestStarted,
  SetupPage,
} from '../../schemas/company-setup-links.js';
import { connectionTestKey, openTestResult, sealTestStart } from '../../domain/companies/sso/connection-test.js';
import { signInConnection } from '../../domain/companies/sso/connections.js';
import { connectionSecretKey } from '../../domain/companies/sso/secret.js';
import { SsoConnectionAnswer, SsoConnectionBody } from '../../schemas/company-sso.js';
import { CreatedScimToken } from '../../schemas/scim.js';
import { Type } from 'typebox';

declare module 'fastify' {
  interface FastifyRequest {
    setupLink: SetupLinkCaller | null;
  }
}

const tags = ['configuracion-empresa'];
const errors = { 401: ErrorRef, 404: ErrorRef, 409: ErrorRef, 410: ErrorRef, 429: ErrorRef, ...commonErrors };

const callerOf = (request: FastifyRequest): SetupLinkCaller => {
  if (!request.setupLink) throw new HttpError(401, 'Falta el enlace de configuración', 'ENLACE_NO_VALIDO');
  return request.setupLink;
};

/** What a link may do to its company: what an owner may do to the company's domain, sign-in and directory. */
const ownerAccess = (caller: SetupLinkCaller): CompanyAccess => ({
  companyId: caller.companyId,
  platform: false,
  role: 'propietario',
  status: 'active',
});

/**
 * The company's setup page's calls, without an account: `Authorization: Bearer cfg_…`, the secret the page reads from
 * its URL's fragment (domain/companies/setup-links.ts), checked at every call and limited per address. Every change
 * is in the company's audit log with the link and the address it came from.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const redirectUri = companyRedirectUri(app.config.apiPublicUrl);
  const saml = (companyId: number) => samlSpAddresses(app.config.apiPublicUrl, companyId);
  const providerDeps = providerSaveDeps(app.db, app.signingKey.privateKey, app.config);
  const urlBase = `${app.config.apiPublicUrl.replace(/\/+$/, '')}/scim/v2`;
  const testKey = connectionTestKey(app.signingKey.privateKey);
  const secretKey = connectionSecretKey(app.signingKey.privateKey);

  app.decorateRequest('setupLink', null);
  // Each call presents the secret: limited per address like the other code routes, before the secret is looked up.
  const config = { rateLimit: { max: app.config.authRateLimitPerMinute, timeWindow: '1 minute' } };
  app.addHook('preHandler', async (request) => {
    request.setupLink = await setupLinkCaller(app.db, request.headers.authorization, request.ip, new Date(app.clock()));
  });

  app.get(
    '',
    {
      config,
      schema: {
        summary: 'Lo que muestra la página de configuración de la empresa: su nombre y los tres pasos',
        tags,
        security,
        response: { 200: SetupPage, ...errors },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const proveedor = await connectionView(app.db, caller.companyId, redirectUri, saml(caller.companyId)).catch(
        (error: unknown) => {
          if (error instanceof HttpError && error.code === 'SIN_PROVEEDOR') return null;
          throw error;
        },
      );
      return {
        enlace: { id: caller.linkId, venceEn: caller.expiresAt },
        empresa: { id: caller.companyId, nombre: caller.companyName },
        dominios: await listDomains(app.db, caller.companyId),
        inicioDeSesion: { direcciones: { redirectUri, saml: saml(caller.companyId) }, proveedor },
        directorio: { urlBase },
      };
    },
  );

  app.post(
    '/dominios',
    {
      config,
      schema: {
        summary: 'Paso 1: reclama un dominio para la empresa y da el registro TXT que debe publicar',
        tags,
        security,
        body: ClaimDomainBody,
        response: { 201: CompanyDomain, ...errors },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const domain = await claimDomain(app.db, setupLinkActor(caller), caller.companyId, request.body.dominio);
      return reply.code(201).send(domain);
    },
  );

  app.post(
    '/dominios/:dominio/verificar',
    {
      config,
      schema: {
        summary: "Paso 1: 'Comprobar': prueba el dominio por su registro TXT (409 REGISTRO_TXT_NO_ENCONTRADO)",
        tags,
        security,
        params: Type.Object(
          { dominio: Type.String({ minLength: 1, maxLength: 253 }) },
          { additionalProperties: false },
        ),
        response: { 200: CompanyDomain, ...errors },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      await app.outboundLimit(() => `empresa:${caller.companyId}`)(request);
      const actor = setupLinkActor(caller);
      return verifyDomainByDns(app.db, app.domainLookup, actor, caller.companyId, request.params.dominio);
    },
  );

  app.put(
    '/proveedor',
    {
      config,
      bodyLimit: maxMetadataBytes + 64 * 1024,
      schema: {
        summary: 'Paso 2: conecta o cambia el acceso propio de la empresa (como PUT /empresas/:id/proveedor)',
        tags,
        security,
        body: SsoConnectionBody,
        response: { 200: SsoConnectionAnswer, ...errors },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return saveProvider(providerDeps, setupLinkActor(caller), ownerAccess(caller), request.body);
    },
  );

  app.post(
    '/scim/tokens',
    {
      config,
      schema: {
        summary: 'Paso 3: crea un token del directorio (SCIM 2.0) de la empresa; se muestra solo esta vez',
        tags,
        security,
        response: { 201: CreatedScimToken, ...errors },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const description = `Enlace de configuración n.º ${caller.linkId}`;
      const created = await createToken(app.db, setupLinkActor(caller), caller.companyId, description);
      return reply.code(201).send({ ...created, urlBase });
    },
  );

  app.post(
    '/prueba',
    {
      config,
      schema: {
        summary:
          "Paso 2: 'Probar conexión': la dirección de un inicio de sesión de prueba en el proveedor de la empresa, sin sesión ni cuenta",
        description:
          'El navegador la abre; el proveedor vuelve a /configurar-empresa?prueba=<resultado sellado para este enlace>, que la página lee con POST /configuracion-empresa/prueba/resultado. 409 SIN_PROVEEDOR sin proveedor conectado.',
        tags,
        security,
        response: { 201: ConnectionTestStarted, ...errors },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const connection = await signInConnection(app.db, secretKey, caller.companyId);
      if (connection?.status !== 'active')
        throw new HttpError(
          409,
          'La empresa aún no tiene su proveedor de identidad conectado: guárdalo primero',
          'SIN_PROVEEDOR',
        );
      const inicio = sealTestStart(testKey, caller.linkId, caller.companyId, app.clock());
      await recordSetupLinkUse(app.db, caller, 'prueba_conexion', { protocolo: connection.protocol });
      const url = new URL(`${app.config.apiPublicUrl.replace(/\/+$/, '')}/auth/empresa/prueba`);
      url.searchParams.set('inicio', inicio);
      return reply.code(201).send({ url: url.href });
    },
  );

  app.post(
    '/prueba/resultado',
    {
      config,
      schema: {
        summary: "Paso 2: el resultado de 'Probar conexión': el email, los nombres y lo que impediría entrar",
        description:
          'Solo con el enlace que inició la prueba y durante 10 minutos; otro enlace, o de otra empresa, recibe 404 PRUEBA_NO_ENCONTRADA.',
        tags,
        security,
        body: ConnectionTestResultBody,
        response: { 200: ConnectionTestResult, ...errors },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const result = openTestResult(testKey, caller.linkId, request.body.resultado, app.clock());
      if (!result)
        throw new HttpError(
          404,
          'No se encontró el resultado de la prueba o ya venció: pulsa «Probar conexión» otra vez',
          'PRUEBA_NO_ENCONTRADA',
        );
      return result;
    },
  );
};

export default routes;
