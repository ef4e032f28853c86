import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { Type } from 'typebox';
import { companyStatus } from '../../domain/companies/access.js';
import { companyNotFound } from '../../domain/companies/companies.js';
import {
  type CompanyProfile,
  type CompanySignInRefusal,
  CompanySignInRefused,
  completeLink,
  linkInvalid,
  signInWithCompany,
} from '../../domain/companies/sso/accounts.js';
import {
  connectionForEmail,
  type OidcSignInConnection,
  recordConnectionError,
  refreshSamlMetadata,
  signInConnection,
} from '../../domain/companies/sso/connections.js';
import {
  discoverIdp,
  discoveryUrl,
  failureReason,
  privateNetworkRefused,
} from '../../domain/companies/sso/discovery.js';
import { answerBrowserOverLimit, browserNavigation } from '../../plugins/external/rate-limit.js';
import { ssoMessages as M } from '../../domain/companies/sso/messages.js';
import { samlSpAddresses, spMetadataXml } from '../../domain/companies/sso/saml-metadata.js';
import { acceptSamlResponse, startSamlSignIn } from '../../domain/companies/sso/saml-sign-in.js';
import { connectionSecretKey } from '../../domain/companies/sso/secret.js';
import {
  type ConnectionTestResult,
  connectionTestKey,
  judgeProfile,
  openTestStart,
  refusedTest,
  sealTestResult,
} from '../../domain/companies/sso/connection-test.js';
import { setupLinkOpen, setupPagePath } from '../../domain/companies/setup-links.js';
import { isEmailAddress, normalizeEmail } from '../../lib/email-address.js';
import { maxMessageBytes } from '../../lib/saml/xml.js';
import { isBinding, issueSignInReturn } from '../../domain/social-sign-in/returns.js';
import {
  amrProvesSecondFactor,
  companyTrustsProviderSecondFactor,
} from '../../domain/companies/sso/provider-second-factor.js';
import { startAuthorization } from '../../lib/oauth/authorization-start.js';
import { allowedRedirect, portalPage, transactionCookieKey } from '../../lib/oauth/portal-return.js';
import { openTransaction, sealTransaction, type SignInTransaction } from '../../lib/oauth/transaction-cookie.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { commonErrors, ErrorRef } from '../../schemas/common.js';
import {
  CompanyAccess,
  CompanyAccessQuery,
  CompanyLinkBody,
  CompanyLinked,
  CompanySignInQuery,
  ConnectionTestQuery,
  SamlAcsBody,
  SamlCompanyParams,
} from '../../schemas/company-sso.js';
import { ProviderAnswer } from '../../schemas/oauth.js';

const cookieName = 'portal_oauth_empresa';
/** A sign-in must come back from the provider within this time. */
const transactionTtlMs = 10 * 60 * 1000;
/** The clients kept (discovery read once per connection version), at most. */
const keptClients = 500;
const redirect = { 302: Type.Null({ description: 'Redirección al proveedor o de vuelta al portal' }) };

function text(value: unknown, max: number): string {
  return typeof value === 'string' ? value.trim().slice(0, max) : '';
}

/**
 * A company's own sign-in (docs/decisions/0080-company-sign-in.md, 0099-company-saml-sign-in.md): the sign-in page
 * asks whether an email's domain has one (GET /auth/empresa/acceso), the browser goes through the company's OpenID
 * Connect provider (GET /auth/empresa → provider → GET /auth/empresa/callback) or its SAML identity provider
 * (GET /auth/empresa → AuthnRequest → POST /auth/empresa/saml/:id/acs) and comes back to the portal with the one-time
 * return code of Google's and Apple's sign-in, or with a link to confirm signed in to the existing account (POST
 * /auth/empresa/vincular).
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const secure = app.config.apiPublicUrl.startsWith('https://');
  const cookieKey = transactionCookieKey(app.signingKey.privateKey);
  const secretKey = connectionSecretKey(app.signingKey.privateKey);
  const testKey = connectionTestKey(app.signingKey.privateKey);
  const callbackUrl = `${app.config.apiPublicUrl}/auth/empresa/callback`;
  const perIp = { rateLimit: { max: app.config.authRateLimitPerMinute, timeWindow: '1 minute' } };
  // The browser's own navigations (the start, the OIDC return, the SAML ACS) come back to /login over the limit.
  const perIpNavigation = { ...perIp, ...browserNavigation };
  const portal = (path: string, query: Record<string, string | null>) =>
    portalPage(app.config.portalUrl, path, { ...query, provider: 'empresa' });
  const refused = (code: CompanySignInRefusal, redirectUrl: string | null) =>
    portal('/login', { error: code, redirect_url: redirectUrl });

  answerBrowserOverLimit(app, (_error, _request, reply) => reply.redirect(refused('company_rate_limited', null)));

  const saml = (companyId: number) => samlSpAddresses(app.config.apiPublicUrl, companyId);
  /** A 'Probar conexión' ends on the setup page with its result sealed for the link (or with none, when it never began). */
  const testEnds = (linkId: number | null, result: ConnectionTestResult | null) =>
    portalPage(app.config.portalUrl, setupPagePath, {
      prueba: linkId !== null && result ? sealTestResult(testKey, linkId, result, Date.now()) : null,
    });
  /** The SAML request of a test keeps, in place of a tab's binding, the link it answers to (no binding looks so). */
  const testBindingPrefix = 'prueba:';
  const testLinkOf = (binding: string) =>
    binding.startsWith(testBindingPrefix) ? Number(binding.slice(testBindingPrefix.length)) || null : null;

  await app.register(cookie);
  // The identity provider's response comes as a form posted by the browser (SAML's HTTP-POST binding).
  await app.register(formbody, { bodyLimit: maxMessageBytes });

  /** Each connection's client, by the version of its row: discovery is read once per process and connection. */
  const clients = new Map<number, { version: string; configuration: Promise<client.Configuration> }>();
  const configurationOf = (connection: OidcSignInConnection) => {
    const version = `${new Date(connection.updatedAt).getTime()}`;
    const kept = clients.get(connection.companyId);
    if (kept?.version === version) return kept.configuration;
    const configuration = discoverIdp(
      connection.issuer,
      connection.clientId,
      connection.clientSecret,
      app.config.companyProviderPrivateNetwork,
    );
    if (clients.size >= keptClients) clients.delete(clients.keys().next().value as number);
    clients.set(connection.companyId, { version, configuration });
    configuration.catch(() => {
      if (clients.get(connection.companyId)?.configuration === configuration) clients.delete(connection.companyId);
    });
    return configuration;
  };
  /** The client of the connection, or null once the failure is recorded for the company's administrators. */
  const configured = async (request: FastifyRequest, connection: OidcSignInConnection) => {
    try {
      return await configurationOf(connection);
    } catch (error) {
      request.log.warn({ companyId: connection.companyId, reason: failureReason(error) }, 'company discovery failed');
      await recordConnectionError(
        app.db,
        connection.companyId,
        M.errorDiscovery(discoveryUrl(connection.issuer), failureReason(error)),
      );
      return null;
    }
  };

  /** The companies whose SAML metadata is being read again by this process (one reading at a time each). */
  const refreshing = new Set<number>();
  // Read in the background: the sign-in goes on with the stored metadata, the next one uses what was read.
  const refreshLater = (request: FastifyRequest, companyId: number, url: string) => {
    if (refreshing.has(companyId)) return;
    refreshing.add(companyId);
    refreshSamlMetadata(app.db, companyId, url, app.config.companyProviderPrivateNetwork)
      .catch((error: unknown) => request.log.error({ err: error, companyId }, 'company SAML metadata refresh failed'))
      .finally(() => refreshing.delete(companyId));
  };

  app.get(
    '/empresa/acceso',
    {
      config: perIp,
      schema: {
        summary: 'Si el dominio de un email entra por el acceso propio de su empresa',
        description:
          'La página de inicio de sesión lo pregunta al escribir el email, para ofrecer «Continuar con el acceso de <empresa>» y decir si la contraseña sigue permitida.',
        tags: ['auth'],
        querystring: CompanyAccessQuery,
        response: { 200: CompanyAccess, ...commonErrors },
      },
    },
    async (request) => {
      const found = await connectionForEmail(app.db, normalizeEmail(request.query.email));
      return found
        ? { empresa: { id: found.companyId, nombre: found.name }, permitirContrasena: found.allowPassword }
        : { empresa: null, permitirContrasena: true };
    },
  );

  app.get(
    '/empresa',
    {
      config: perIpNavigation,
      schema: {
        summary: 'Inicia el inicio de sesión con el acceso propio de la empresa del email (navegación del navegador)',
        description:
          'Redirige al proveedor OpenID Connect de la empresa con state, nonce, PKCE y el binding de la pestaña guardados en una cookie firmada, o a su proveedor SAML con una AuthnRequest (HTTP-Redirect) cuyo ID se guarda 10 minutos con el binding de la pestaña; sin acceso para ese dominio vuelve a /login?error=company_unavailable&provider=empresa del portal, sin binding a /login?error=auth_failed.',
        tags: ['auth'],
        querystring: CompanySignInQuery,
        response: redirect,
      },
    },
    async (request, reply) => {
      const redirectUrl = allowedRedirect(request.query.redirect_url, app.config.redirectAllowList);
      if (!isBinding(request.query.binding)) return reply.redirect(refused('auth_failed', redirectUrl));
      const email = normalizeEmail(text(request.query.email, 254));
      const found = isEmailAddress(email) ? await connectionForEmail(app.db, email) : undefined;
      const connection = found && (await signInConnection(app.db, secretKey, found.companyId));
      if (!connection) return reply.redirect(refused('company_unavailable', redirectUrl));
      if (connection.protocol === 'saml') {
        if (connection.metadataUrlDue) refreshLater(request, connection.companyId, connection.metadataUrlDue);
        const address = await startSamlSignIn(app.db, connection, saml(connection.companyId), {
          binding: request.query.binding,
          redirectUrl,
        });
        return reply.redirect(address);
      }
      const configuration = await configured(request, connection);
      if (!configuration) return reply.redirect(refused('company_unavailable', redirectUrl));
      const { transaction, url: authorizationUrl } = await startAuthorization(configuration, {
        transaction: {
          provider: 'empresa',
          companyId: connection.companyId,
          redirectUrl,
          binding: request.query.binding,
        },
        redirectUri: callbackUrl,
        scope: 'openid email profile',
        ttlMs: transactionTtlMs,
        parameters: { login_hint: email },
      });
      reply.setCookie(cookieName, sealTransaction(cookieKey, transaction), {
        path: '/auth',
        httpOnly: true,
        secure,
        sameSite: 'lax',
        maxAge: transactionTtlMs / 1000,
      });
      return reply.redirect(authorizationUrl.href);
    },
  );

  /** The provider's code exchanged and checked: its person's profile, or the refusal to send the browser to. */
  const exchange = async (
    request: FastifyRequest,
    connection: OidcSignInConnection,
    configuration: client.Configuration,
    transaction: SignInTransaction,
    answer: Record<string, string | undefined>,
  ): Promise<CompanyProfile | CompanySignInRefusal> => {
    const currentUrl = new URL(callbackUrl);
    for (const key of ['code', 'state', 'iss'] as const) {
      if (answer[key] !== undefined) currentUrl.searchParams.set(key, answer[key] as string);
    }
    try {
      const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: transaction.codeVerifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) return 'auth_failed';
      return {
        subject: claims.sub,
        email: text(claims.email, 254),
        emailVerified: claims.email_verified,
        name: text(claims.given_name, 100),
        lastName: text(claims.family_name, 100),
        secondFactor: amrProvesSecondFactor(claims.amr),
      };
    } catch (error) {
      const reason = failureReason(error);
      const companyId = connection.companyId;
      // The provider refused the portal's credentials, or could not be reached: the company's administrators can fix
      // that, so it is recorded for them. A bad or replayed answer (state, nonce, PKCE, a used code) is the browser's.
      // A 401 with WWW-Authenticate is the token endpoint refusing the client's authentication (RFC 6749 §5.2).
      if (
        error instanceof client.WWWAuthenticateChallengeError ||
        (error instanceof client.ResponseBodyError && ['invalid_client', 'unauthorized_client'].includes(error.error))
      ) {
        request.log.warn({ companyId, reason }, 'company provider refused the client');
        await recordConnectionError(app.db, companyId, M.errorClient(reason));
        return 'company_unavailable';
      }
      // A token endpoint on a private or reserved address (the guard cut the connection) is the administrators' to fix.
      const network =
        privateNetworkRefused(error) ||
        (!(error instanceof client.ResponseBodyError) &&
          !(error instanceof client.ClientError) &&
          !(error instanceof client.AuthorizationResponseError));
      if (network || (error instanceof client.ResponseBodyError && error.status >= 500)) {
        request.log.warn({ companyId, reason }, 'company provider token exchange failed');
        await recordConnectionError(app.db, companyId, M.errorToken(reason));
        return 'company_unavailable';
      }
      request.log.warn({ companyId, reason }, 'company sign-in answer refused');
      return 'auth_failed';
    }
  };

  /**
   * Where the browser lands once the provider vouched for the person (OpenID Connect or SAML alike): the return code
   * bound to the tab that started, the link to confirm, or /login with the refusal.
   */
  const landing = async (
    request: FastifyRequest,
    connection: { companyId: number; name: string; domains: string[] },
    profile: CompanyProfile,
    binding: string,
    redirectUrl: string | null,
  ): Promise<string> => {
    try {
      const outcome = await signInWithCompany(
        app.db,
        { companyId: connection.companyId, name: connection.name, domains: connection.domains },
        profile,
        binding,
      );
      if (outcome.kind === 'link')
        return portalPage(app.config.portalUrl, '/login', {
          vincular: outcome.code,
          empresa: connection.name,
          email: outcome.email,
          redirect_url: redirectUrl,
        });
      const secondFactor =
        profile.secondFactor === true && (await companyTrustsProviderSecondFactor(app.db, connection.companyId));
      const code = await issueSignInReturn(app.db, outcome.user.id, binding, 'empresa', {
        id: connection.companyId,
        secondFactor,
      });
      return portal('/auth/google/callback', { code, redirect_url: redirectUrl });
    } catch (error) {
      if (error instanceof CompanySignInRefused) {
        request.log.warn({ companyId: connection.companyId, reason: error.code }, 'company sign-in refused');
        return refused(error.code, redirectUrl);
      }
      // A browser navigation: whatever went wrong, the person lands on the portal's sign-in page.
      request.log.error({ err: error, companyId: connection.companyId }, 'company sign-in failed');
      return refused('auth_failed', redirectUrl);
    }
  };

  app.get(
    '/empresa/prueba',
    {
      config: perIpNavigation,
      schema: {
        summary:
          "'Probar conexión' de la página de configuración: un inicio de sesión de prueba en el proveedor de la empresa",
        description:
          'Solo navegación del navegador, desde la dirección que da POST /configuracion-empresa/prueba (sellada, 5 minutos, ligada al enlace). Redirige al proveedor de la empresa (OpenID Connect con state, nonce y PKCE en la cookie firmada; SAML con una AuthnRequest); su respuesta vuelve a /configurar-empresa?prueba=… con el resultado sellado para ese enlace. No crea sesión, cuenta ni vínculo.',
        tags: ['auth'],
        querystring: ConnectionTestQuery,
        response: redirect,
      },
    },
    async (request, reply) => {
      const start = openTestStart(testKey, request.query.inicio, Date.now());
      if (!start || !(await setupLinkOpen(app.db, start.linkId, start.companyId, new Date(app.clock()))))
        return reply.redirect(testEnds(null, null));
      const connection = await signInConnection(app.db, secretKey, start.companyId);
      if (connection?.status !== 'active')
        return reply.redirect(testEnds(start.linkId, refusedTest('oidc', M.testNoProvider)));
      if (connection.protocol === 'saml') {
        const address = await startSamlSignIn(app.db, connection, saml(connection.companyId), {
          binding: `${testBindingPrefix}${start.linkId}`,
          redirectUrl: null,
        });
        return reply.redirect(address);
      }
      const configuration = await configured(request, connection);
      if (!configuration) return reply.redirect(testEnds(start.linkId, refusedTest('oidc', M.testDiscovery)));
      const { transaction, url: authorizationUrl } = await startAuthorization(configuration, {
        transaction: {
          provider: 'empresa',
          companyId: connection.companyId,
          redirectUrl: null,
          binding: '',
          setupLinkId: start.linkId,
        },
        redirectUri: callbackUrl,
        scope: 'openid email profile',
        ttlMs: transactionTtlMs,
        parameters: { prompt: 'login' },
      });
      reply.setCookie(cookieName, sealTransaction(cookieKey, transaction), {
        path: '/auth',
        httpOnly: true,
        secure,
        sameSite: 'lax',
        maxAge: transactionTtlMs / 1000,
      });
      return reply.redirect(authorizationUrl.href);
    },
  );

  app.get(
    '/empresa/callback',
    {
      config: perIpNavigation,
      schema: {
        summary:
          'Respuesta del proveedor de la empresa: verifica todo, vincula la cuenta y vuelve al portal con un código de un solo uso',
        description:
          'Solo navegación del navegador: siempre redirige a la página /auth/google/callback del portal (con el código, o con `error`), a su /login?error=… o a /login?vincular=… cuando la cuenta existente tiene credenciales propias y debe confirmar el vínculo.',
        tags: ['auth'],
        querystring: ProviderAnswer,
        response: { ...redirect, ...commonErrors },
      },
    },
    async (request, reply) => {
      const answer = (request.query ?? {}) as Record<string, string | undefined>;
      const transaction = openTransaction(cookieKey, request.cookies[cookieName], Date.now());
      reply.clearCookie(cookieName, { path: '/auth' });
      const ours = transaction?.provider === 'empresa' && typeof transaction.companyId === 'number';
      // A 'Probar conexión' of a setup link: judged and told back to the setup page, never signed in.
      const testLink = ours && typeof transaction.setupLinkId === 'number' ? transaction.setupLinkId : null;
      if (testLink !== null && transaction) {
        if (answer.error) {
          const error = /^[a-z_]{1,64}$/.test(answer.error) ? answer.error : 'access_denied';
          return reply.redirect(testEnds(testLink, refusedTest('oidc', M.testProviderError(error))));
        }
        const connection = await signInConnection(app.db, secretKey, transaction.companyId as number);
        if (connection?.status !== 'active' || connection.protocol !== 'oidc')
          return reply.redirect(testEnds(testLink, refusedTest('oidc', M.testNoProvider)));
        const configuration = await configured(request, connection);
        if (!configuration) return reply.redirect(testEnds(testLink, refusedTest('oidc', M.testDiscovery)));
        const profile = await exchange(request, connection, configuration, transaction, answer);
        const result =
          typeof profile === 'string'
            ? refusedTest('oidc', M.testRefusal(profile))
            : judgeProfile('oidc', profile, connection.domains);
        return reply.redirect(testEnds(testLink, result));
      }
      const redirectUrl = ours ? allowedRedirect(transaction.redirectUrl, app.config.redirectAllowList) : null;
      if (answer.error) {
        const error = /^[a-z_]{1,64}$/.test(answer.error) ? answer.error : 'access_denied';
        return reply.redirect(portal('/auth/google/callback', { error, redirect_url: redirectUrl }));
      }
      if (!ours || !isBinding(transaction.binding)) return reply.redirect(refused('auth_failed', redirectUrl));
      const connection = await signInConnection(app.db, secretKey, transaction.companyId as number);
      if (connection?.status !== 'active' || connection.protocol !== 'oidc')
        return reply.redirect(refused('company_unavailable', redirectUrl));
      const configuration = await configured(request, connection);
      if (!configuration) return reply.redirect(refused('company_unavailable', redirectUrl));
      const profile = await exchange(request, connection, configuration, transaction, answer);
      if (typeof profile === 'string') return reply.redirect(refused(profile, redirectUrl));
      return reply.redirect(await landing(request, connection, profile, transaction.binding, redirectUrl));
    },
  );

  app.get(
    '/empresa/saml/:id/metadata',
    {
      config: perIp,
      schema: {
        summary:
          'Los metadatos SAML del portal como proveedor de servicio de la empresa, para importarlos en su proveedor',
        description:
          'Un EntityDescriptor con SPSSODescriptor (WantAssertionsSigned, NameID emailAddress y persistent) y el Assertion Consumer Service HTTP-POST de la empresa; existe para toda empresa, antes de conectar su proveedor.',
        tags: ['auth'],
        params: SamlCompanyParams,
        response: { 200: Type.String({ description: 'application/samlmetadata+xml' }), 404: ErrorRef, ...commonErrors },
      },
    },
    async (request, reply) => {
      if (!(await companyStatus(app.db, request.params.id))) throw companyNotFound();
      return reply.type('application/samlmetadata+xml').send(spMetadataXml(saml(request.params.id)));
    },
  );

  app.post(
    '/empresa/saml/:id/acs',
    {
      config: perIpNavigation,
      bodyLimit: maxMessageBytes,
      schema: {
        summary:
          'Assertion Consumer Service de la empresa: la respuesta SAML de su proveedor (HTTP-POST), verificada, y de vuelta al portal',
        description:
          'Solo navegación del navegador: siempre redirige, a la página /auth/google/callback del portal con el código de un solo uso ligado a la pestaña que inició el acceso, a /login?vincular=… o a /login?error=…&provider=empresa. Se rechaza una respuesta sin firma válida de un certificado de los metadatos, con más de una aserción, para otro destinatario, fuera de plazo (2 minutos de margen), que no responde a una solicitud viva de esta empresa (ni las no solicitadas) o ya usada.',
        tags: ['auth'],
        params: SamlCompanyParams,
        body: SamlAcsBody,
        response: { ...redirect, ...commonErrors },
      },
    },
    async (request, reply) => {
      const companyId = request.params.id;
      const connection = await signInConnection(app.db, secretKey, companyId);
      if (connection?.protocol !== 'saml' || connection.status !== 'active') {
        request.log.warn({ companyId }, 'company SAML response for no active SAML connection');
        return reply.redirect(refused('company_unavailable', null));
      }
      const encoded = request.body?.SAMLResponse ?? '';
      const outcome = await acceptSamlResponse(app.db, connection, saml(companyId), encoded);
      if ('refused' in outcome) {
        const testLink = outcome.binding === null ? null : testLinkOf(outcome.binding);
        if (testLink !== null) {
          if (outcome.connectionError) await recordConnectionError(app.db, companyId, outcome.connectionError);
          const reason = outcome.connectionError ?? M.testRefusal(outcome.refused);
          return reply.redirect(testEnds(testLink, refusedTest('saml', reason)));
        }
        const redirectUrl = allowedRedirect(outcome.redirectUrl ?? undefined, app.config.redirectAllowList);
        request.log.warn({ companyId, reason: outcome.reason }, 'company SAML response refused');
        if (outcome.connectionError) await recordConnectionError(app.db, companyId, outcome.connectionError);
        return reply.redirect(refused(outcome.refused, redirectUrl));
      }
      const testLink = testLinkOf(outcome.binding);
      if (testLink !== null)
        return reply.redirect(testEnds(testLink, judgeProfile('saml', outcome.profile, connection.domains)));
      const redirectUrl = allowedRedirect(outcome.redirectUrl ?? undefined, app.config.redirectAllowList);
      return reply.redirect(await landing(request, connection, outcome.profile, outcome.binding, redirectUrl));
    },
  );

  app.post(
    '/empresa/vincular',
    {
      config: perIp,
      onRequest: app.authenticate,
      schema: {
        summary: 'Vincula la cuenta de la sesión con el acceso de su empresa (tras /login?vincular=…)',
        description:
          'Solo con la sesión de la cuenta que el acceso de la empresa encontró y el secreto de la pestaña que lo inició; el código se gasta con cualquier intento (400 VINCULO_INVALIDO).',
        tags: ['auth'],
        security: [{ bearerAuth: [] }],
        body: CompanyLinkBody,
        response: { 200: CompanyLinked, 401: ErrorRef, ...commonErrors },
      },
    },
    async (request) => {
      const auth = signedIn(request);
      if (auth.kind !== 'session') throw linkInvalid();
      const empresa = await completeLink(app.db, auth.user, request.body.codigo, request.body.secreto);
      return { empresa };
    },
  );
};

export default routes;
