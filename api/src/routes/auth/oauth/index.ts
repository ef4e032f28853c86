import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { Type } from 'typebox';
import { isAllowedPicture } from '@portal/contracts/users/picture';
import type { IdentityProvider } from '../../../db/schema.js';
import { startAuthorization } from '../../../lib/oauth/authorization-start.js';
import { allowedRedirect as allowed, portalPage, transactionCookieKey } from '../../../lib/oauth/portal-return.js';
import { openTransaction, sealTransaction, type SignInTransaction } from '../../../lib/oauth/transaction-cookie.js';
import {
  ConfiguredProviders,
  ExchangedSession,
  ProviderAnswer,
  ReturnExchange,
  StartQuery,
} from '../../../schemas/oauth.js';
import { commonErrors } from '../../../schemas/common.js';
import { currentUserView, findUserById } from '../../../domain/accounts/queries.js';
import { SignInRefused, signInWithIdentity, type ProviderProfile } from '../../../domain/social-sign-in/identities.js';
import { configuredProviders, type OidcProvider } from '../../../domain/social-sign-in/providers.js';
import {
  isBinding,
  issueSignInReturn,
  redeemSignInReturn,
  signInReturnInvalid,
} from '../../../domain/social-sign-in/returns.js';
import { startSession } from '../../../domain/sessions/sessions.js';

/** A sign-in must come back from the provider within this time. */
const transactionTtlMs = 10 * 60 * 1000;
const labels: Record<IdentityProvider, string> = { google: 'Google', apple: 'Apple' };
const cookieName = (provider: IdentityProvider) => `portal_oauth_${provider}`;

const redirect = {
  302: Type.Null({ description: 'Redirección al proveedor o de vuelta al portal' }),
};

function text(value: unknown, max: number): string {
  return typeof value === 'string' ? value.trim().slice(0, max) : '';
}

/** Apple's `user` field, when present and well formed. */
function appleName(raw: string | undefined): { name: string; lastName: string } {
  if (!raw || raw.length > 2048) return { name: '', lastName: '' };
  try {
    const parsed = JSON.parse(raw) as { name?: { firstName?: unknown; lastName?: unknown } };
    return { name: text(parsed.name?.firstName, 100), lastName: text(parsed.name?.lastName, 100) };
  } catch {
    return { name: '', lastName: '' };
  }
}

/** Apple writes `email_verified` as the string "true"; Google as a boolean. */
const isTrue = (value: unknown) => value === true || value === 'true';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const providers = configuredProviders(app.config);
  const secure = app.config.apiPublicUrl.startsWith('https://');
  const cookieKey = transactionCookieKey(app.signingKey.privateKey);
  const perIp = { rateLimit: { max: app.config.authRateLimitPerMinute, timeWindow: '1 minute' } };

  await app.register(cookie);
  // Apple posts its answer as a form.
  await app.register(formbody, { bodyLimit: 16 * 1024 });

  const allowedRedirect = (raw: string | undefined) => allowed(raw, app.config.redirectAllowList);
  const portal = (path: string, query: Record<string, string | null>) => portalPage(app.config.portalUrl, path, query);
  /**
   * A failure names Apple in the portal's address (`provider=apple`), so its screens say Apple;
   * Google, the spec's case, keeps the spec's addresses unchanged.
   */
  const named = (provider: IdentityProvider) => (provider === 'apple' ? 'apple' : null);
  const callbackUrl = (provider: IdentityProvider) => `${app.config.apiPublicUrl}/auth/${provider}/callback`;

  const start =
    (name: IdentityProvider) =>
    async (
      request: FastifyRequest<{ Querystring: { redirect_url?: string; binding?: string } }>,
      reply: FastifyReply,
    ) => {
      const redirectUrl = allowedRedirect(request.query.redirect_url);
      const provider = providers[name];
      // Not configured here: no retry can help, and the portal says so (it asks first, GET /auth/social/proveedores).
      if (!provider)
        return reply.redirect(
          portal('/login', { error: 'provider_unavailable', provider: name, redirect_url: redirectUrl }),
        );
      // Without the binding of the tab that starts, the return could never be redeemed: say so at once.
      if (!isBinding(request.query.binding))
        return reply.redirect(
          portal('/login', { error: 'auth_failed', provider: named(name), redirect_url: redirectUrl }),
        );
      let configuration: client.Configuration;
      try {
        configuration = await provider.configuration();
      } catch (error) {
        request.log.warn({ err: error, provider: name }, 'discovery failed');
        return reply.redirect(
          portal('/login', { error: 'auth_failed', provider: named(name), redirect_url: redirectUrl }),
        );
      }
      const { transaction, url: authorizationUrl } = await startAuthorization(configuration, {
        transaction: { provider: name, redirectUrl, binding: request.query.binding },
        redirectUri: callbackUrl(name),
        scope: provider.scope,
        ttlMs: transactionTtlMs,
        ...(provider.responseMode === 'form_post' && { parameters: { response_mode: 'form_post' } }),
      });
      reply.setCookie(cookieName(name), sealTransaction(cookieKey, transaction), {
        path: '/auth',
        httpOnly: true,
        secure,
        // Apple's answer is a cross-site POST, which a Lax cookie does not follow (None needs https).
        sameSite: provider.responseMode === 'form_post' && secure ? 'none' : 'lax',
        maxAge: transactionTtlMs / 1000,
      });
      return reply.redirect(authorizationUrl.href);
    };

  /** Checks everything the provider answered and answers the account signing in; null when it cannot go on. */
  const complete = async (
    request: FastifyRequest,
    provider: OidcProvider,
    transaction: SignInTransaction,
    answer: Record<string, string | undefined>,
  ) => {
    const currentUrl = new URL(callbackUrl(provider.name));
    for (const key of ['code', 'state', 'iss', 'error', 'error_description'] as const) {
      if (answer[key] !== undefined) currentUrl.searchParams.set(key, answer[key] as string);
    }
    try {
      const tokens = await client.authorizationCodeGrant(await provider.configuration(), currentUrl, {
        pkceCodeVerifier: transaction.codeVerifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      const email = text(claims?.email, 254);
      if (!claims || !email.includes('@') || !isTrue(claims.email_verified)) {
        request.log.warn({ provider: provider.name }, 'provider did not vouch for a verified email');
        return null;
      }
      const fromApple = appleName(answer.user);
      const profile: ProviderProfile = {
        provider: provider.name,
        subject: claims.sub,
        email,
        name: text(claims.given_name, 100) || fromApple.name,
        lastName: text(claims.family_name, 100) || fromApple.lastName,
        picture: isAllowedPicture(text(claims.picture, 2048)) ? text(claims.picture, 2048) : null,
      };
      return await signInWithIdentity(app.db, profile);
    } catch (error) {
      // A browser navigation: whatever went wrong (refusal, provider or database trouble), the person lands on the
      // portal's sign-in page with its message, never on an error document of the API.
      const refused =
        error instanceof SignInRefused ||
        error instanceof client.ClientError ||
        error instanceof client.AuthorizationResponseError ||
        error instanceof client.ResponseBodyError;
      if (refused)
        request.log.warn(
          { provider: provider.name, reason: (error as Error).message },
          'sign-in with provider refused',
        );
      else request.log.error({ err: error, provider: provider.name }, 'sign-in with provider failed');
      return null;
    }
  };

  const callback = (name: IdentityProvider) => async (request: FastifyRequest, reply: FastifyReply) => {
    const answer =
      ((request.method === 'POST' ? request.body : request.query) as Record<string, string | undefined>) ?? {};
    const transaction = openTransaction(cookieKey, request.cookies[cookieName(name)], Date.now());
    reply.clearCookie(cookieName(name), { path: '/auth' });
    const redirectUrl = transaction?.provider === name ? allowedRedirect(transaction.redirectUrl ?? undefined) : null;
    // The person said no at the provider (or the provider could not go on): the portal's callback screen says so.
    if (answer.error) {
      app.metrics.signIn(name, 'failure');
      const error = /^[a-z_]{1,64}$/.test(answer.error) ? answer.error : 'access_denied';
      return reply.redirect(
        portal('/auth/google/callback', { error, provider: named(name), redirect_url: redirectUrl }),
      );
    }
    const provider = providers[name];
    const user =
      provider && transaction?.provider === name ? await complete(request, provider, transaction, answer) : null;
    app.metrics.signIn(name, user ? 'success' : 'failure');
    // The portal's callback page redeems the code with the secret of the tab that started (POST /auth/social/canjear).
    const code =
      user && isBinding(transaction?.binding)
        ? await issueSignInReturn(app.db, user.id, transaction.binding, name)
        : null;
    return reply.redirect(
      code
        ? portal('/auth/google/callback', { code, provider: named(name), redirect_url: redirectUrl })
        : portal('/login', { error: 'auth_failed', provider: named(name), redirect_url: redirectUrl }),
    );
  };

  app.get(
    '/social/proveedores',
    {
      config: perIp,
      schema: {
        summary: 'Qué inicios de sesión con Google y Apple tiene configurados este portal',
        description:
          'La página de inicio de sesión lo pregunta al pulsar «Continuar con Google» o «Continuar con Apple», para decir que no está disponible en vez de ir al proveedor.',
        tags: ['auth'],
        response: { 200: ConfiguredProviders, ...commonErrors },
      },
    },
    async () => ({ google: Boolean(providers.google), apple: Boolean(providers.apple) }),
  );

  app.post(
    '/social/canjear',
    {
      config: perIp,
      schema: {
        summary: 'Canjea el código de la vuelta de Google/Apple al portal por una sesión',
        description:
          'Una sola vez, en 60 s, y solo con el secreto de la pestaña que inició el inicio de sesión (su SHA-256 fue el `binding` de GET /auth/google o /auth/apple). Cualquier otro intento gasta el código y responde 400 SIGN_IN_RETURN_INVALID.',
        tags: ['auth'],
        body: ReturnExchange,
        response: { 200: ExchangedSession, ...commonErrors },
      },
    },
    async (request) => {
      const redeemed = await redeemSignInReturn(app.db, request.body.code, request.body.secret);
      const user = redeemed === undefined ? undefined : await findUserById(app.db, redeemed.userId);
      if (!redeemed || user?.status !== 'active') throw signInReturnInvalid();
      return {
        access_token: await startSession(app, user, request, {
          method: redeemed.method,
          ssoCompanyId: redeemed.ssoCompanyId,
          secondFactor: redeemed.secondFactor,
        }),
        user: await currentUserView(app.db, user),
      };
    },
  );

  for (const name of ['google', 'apple'] as const) {
    app.get(
      `/${name}`,
      {
        config: perIp,
        schema: {
          summary: `Inicia el inicio de sesión con ${labels[name]} (navegación del navegador)`,
          description: `Redirige a ${labels[name]} con state, nonce, PKCE y el binding de la pestaña guardados en una cookie firmada; sin configuración vuelve a /login?error=provider_unavailable&provider=${name} del portal, sin binding a /login?error=auth_failed.`,
          tags: ['auth'],
          querystring: StartQuery,
          response: redirect,
        },
      },
      start(name),
    );

    const callbackSchema = {
      summary: `Respuesta de ${labels[name]}: verifica todo, vincula la cuenta y vuelve al portal con un código de un solo uso`,
      description:
        'Solo navegación del navegador: siempre redirige a la página /auth/google/callback del portal (con el código, o con `error`) o a su /login?error=auth_failed. La sesión se obtiene con POST /auth/social/canjear.',
      tags: ['auth'],
      response: { ...redirect, ...commonErrors },
    };
    app.get(
      `/${name}/callback`,
      { config: perIp, schema: { ...callbackSchema, querystring: ProviderAnswer } },
      callback(name),
    );
    if (name === 'apple') {
      app.post(
        `/${name}/callback`,
        { config: perIp, schema: { ...callbackSchema, body: ProviderAnswer } },
        callback(name),
      );
    }
  }
};

export default routes;
