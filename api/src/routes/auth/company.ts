import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { Type } from 'typebox';
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
  recordConnectionError,
  type SignInConnection,
  signInConnection,
} from '../../domain/companies/sso/connections.js';
import {
  discoverIdp,
  discoveryUrl,
  failureReason,
  privateNetworkRefused,
} from '../../domain/companies/sso/discovery.js';
import { ssoMessages as M } from '../../domain/companies/sso/messages.js';
import { connectionSecretKey } from '../../domain/companies/sso/secret.js';
import { isBinding, issueSignInReturn } from '../../domain/social-sign-in/returns.js';
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
} from '../../schemas/company-sso.js';
import { ProviderAnswer } from '../../schemas/oauth.js';

const cookieName = 'portal_oauth_empresa';
/** A sign-in must come back from the provider within this time. */
const transactionTtlMs = 10 * 60 * 1000;
/** The clients kept (discovery read once per connection version), at most. */
const keptClients = 500;
const redirect = { 302: Type.Null({ description: 'Redirección al proveedor o de vuelta al portal' }) };
/** An address with one @ and no spaces or control characters (as the schemas' Email). */
const emailPattern = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u;

function text(value: unknown, max: number): string {
  return typeof value === 'string' ? value.trim().slice(0, max) : '';
}

/**
 * A company's own sign-in (docs/decisions/0080-company-sign-in.md): the sign-in page asks whether an email's domain
 * has one (GET /auth/empresa/acceso), the browser goes through the company's OpenID Connect provider
 * (GET /auth/empresa → provider → GET /auth/empresa/callback) and comes back to the portal with the one-time return code
 * of Google's and Apple's sign-in, or with a link to confirm signed in to the existing account (POST
 * /auth/empresa/vincular).
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const secure = app.config.apiPublicUrl.startsWith('https://');
  const cookieKey = transactionCookieKey(app.signingKey.privateKey);
  const secretKey = connectionSecretKey(app.signingKey.privateKey);
  const callbackUrl = `${app.config.apiPublicUrl}/auth/empresa/callback`;
  const perIp = { rateLimit: { max: app.config.authRateLimitPerMinute, timeWindow: '1 minute' } };
  const portal = (path: string, query: Record<string, string | null>) =>
    portalPage(app.config.portalUrl, path, { ...query, provider: 'empresa' });
  const refused = (code: CompanySignInRefusal, redirectUrl: string | null) =>
    portal('/login', { error: code, redirect_url: redirectUrl });

  await app.register(cookie);

  /** Each connection's client, by the version of its row: discovery is read once per process and connection. */
  const clients = new Map<number, { version: string; configuration: Promise<client.Configuration> }>();
  const configurationOf = (connection: SignInConnection) => {
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
  const configured = async (request: FastifyRequest, connection: SignInConnection) => {
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
      const found = await connectionForEmail(app.db, request.query.email.trim().toLowerCase());
      return found
        ? { empresa: { id: found.companyId, nombre: found.name }, permitirContrasena: found.allowPassword }
        : { empresa: null, permitirContrasena: true };
    },
  );

  app.get(
    '/empresa',
    {
      config: perIp,
      schema: {
        summary: 'Inicia el inicio de sesión con el acceso propio de la empresa del email (navegación del navegador)',
        description:
          'Redirige al proveedor OpenID Connect de la empresa con state, nonce, PKCE y el binding de la pestaña guardados en una cookie firmada; sin acceso para ese dominio vuelve a /login?error=company_unavailable&provider=empresa del portal, sin binding a /login?error=auth_failed.',
        tags: ['auth'],
        querystring: CompanySignInQuery,
        response: redirect,
      },
    },
    async (request, reply) => {
      const redirectUrl = allowedRedirect(request.query.redirect_url, app.config.redirectAllowList);
      if (!isBinding(request.query.binding)) return reply.redirect(refused('auth_failed', redirectUrl));
      const email = text(request.query.email, 254).toLowerCase();
      const found = emailPattern.test(email) ? await connectionForEmail(app.db, email) : undefined;
      const connection = found && (await signInConnection(app.db, secretKey, found.companyId));
      if (!connection) return reply.redirect(refused('company_unavailable', redirectUrl));
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
    connection: SignInConnection,
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

  app.get(
    '/empresa/callback',
    {
      config: perIp,
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
      const redirectUrl = ours ? allowedRedirect(transaction.redirectUrl, app.config.redirectAllowList) : null;
      if (answer.error) {
        const error = /^[a-z_]{1,64}$/.test(answer.error) ? answer.error : 'access_denied';
        return reply.redirect(portal('/auth/google/callback', { error, redirect_url: redirectUrl }));
      }
      if (!ours || !isBinding(transaction.binding)) return reply.redirect(refused('auth_failed', redirectUrl));
      const connection = await signInConnection(app.db, secretKey, transaction.companyId as number);
      if (connection?.status !== 'active') return reply.redirect(refused('company_unavailable', redirectUrl));
      const configuration = await configured(request, connection);
      if (!configuration) return reply.redirect(refused('company_unavailable', redirectUrl));
      const profile = await exchange(request, connection, configuration, transaction, answer);
      if (typeof profile === 'string') return reply.redirect(refused(profile, redirectUrl));
      try {
        const outcome = await signInWithCompany(
          app.db,
          { companyId: connection.companyId, name: connection.name, domains: connection.domains },
          profile,
          transaction.binding,
        );
        if (outcome.kind === 'link')
          return reply.redirect(
            portalPage(app.config.portalUrl, '/login', {
              vincular: outcome.code,
              empresa: connection.name,
              email: outcome.email,
              redirect_url: redirectUrl,
            }),
          );
        const code = await issueSignInReturn(app.db, outcome.user.id, transaction.binding);
        return reply.redirect(portal('/auth/google/callback', { code, redirect_url: redirectUrl }));
      } catch (error) {
        if (error instanceof CompanySignInRefused) {
          request.log.warn({ companyId: connection.companyId, reason: error.code }, 'company sign-in refused');
          return reply.redirect(refused(error.code, redirectUrl));
        }
        // A browser navigation: whatever went wrong, the person lands on the portal's sign-in page.
        request.log.error({ err: error, companyId: connection.companyId }, 'company sign-in failed');
        return reply.redirect(refused('auth_failed', redirectUrl));
      }
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
