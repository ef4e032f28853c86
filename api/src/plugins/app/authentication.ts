import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { roles } from '../../db/schema.js';
import { accountSuspended, forbidden, HttpError, unauthenticated } from '../../lib/errors.js';
import { factorSummary, hasSecondFactor, secondFactorRequired } from './second-factor-status.js';
import type { TokenKind, VerifiedToken } from './tokens.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: 401 unless the request carries a valid bearer token; sets `request.auth`. Runs before the body is parsed or validated, so an anonymous caller learns nothing of a route's schema. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /**
     * onRequest hook, after `authenticate`: 403 unless the user is an administrator (before validation too) and, under
     * ADMIN_SECOND_FACTOR=required, the session proved a second factor (403 SECOND_FACTOR_SETUP_REQUIRED /
     * SECOND_FACTOR_SESSION_REQUIRED).
     */
    requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    auth: VerifiedToken | null;
  }
  interface FastifyContextConfig {
    /**
     * The route also accepts a partner-scoped token (`POST /auth/partner-token`): only read-only calls about the
     * token's own user opt in (api/README.md, "Tokens para apps asociadas"). Every other route refuses one with 401.
     */
    partnerToken?: boolean;
  }
}

/** An administrator under ADMIN_SECOND_FACTOR=required without any second factor: the panel asks to set one up. */
export const secondFactorSetupRequired = () =>
  new HttpError(
    403,
    'Configura un segundo factor (aplicación de autenticación o llave de acceso) para usar el panel de administración',
    'SECOND_FACTOR_SETUP_REQUIRED',
  );

/** An administrator with a second factor whose session did not prove it (a Google/Apple sign-in, say). */
export const secondFactorSessionRequired = () =>
  new HttpError(
    403,
    'Vuelve a iniciar sesión con tu segundo factor para usar el panel de administración',
    'SECOND_FACTOR_SESSION_REQUIRED',
  );

/** The signed-in session of a route that runs `authenticate`. */
export function signedIn(request: FastifyRequest): VerifiedToken {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}

const bearer = /^Bearer +([A-Za-z0-9_.~+/-]+=*)$/i;

const sessionOnly: readonly TokenKind[] = ['session'];
const sessionOrPartner: readonly TokenKind[] = ['session', 'partner'];

/** Which kinds of token a route accepts: portal sessions, plus partner tokens where the route opts in. */
export function acceptedTokens(request: FastifyRequest): readonly TokenKind[] {
  return request.routeOptions.config?.partnerToken === true ? sessionOrPartner : sessionOnly;
}

export default fp(
  async (app) => {
    app.decorateRequest('auth', null);

    app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      const token = bearer.exec(request.headers.authorization ?? '')?.[1];
      const verified = token && token.length <= 4096 ? await app.tokens.verify(token, acceptedTokens(request)) : null;
      if (!verified) {
        // The portal session of an account suspended meanwhile: 403 USER_SUSPENDED, so the person learns why (the client
        // ends the session as it does on a 401; api/README "Suspended sessions"). A partner token stays a plain 401.
        if (token && token.length <= 4096 && (await app.tokens.refusedForSuspension(token, sessionOnly)))
          throw accountSuspended();
        reply.header('www-authenticate', 'Bearer');
        throw unauthenticated();
      }
      request.auth = verified;
    });

    app.decorate('requireAdmin', async function requireAdmin(request: FastifyRequest) {
      const auth = signedIn(request);
      // A partner token never administers, whoever it belongs to.
      if (auth.kind !== 'session' || auth.user.role !== roles.admin) throw forbidden();
      // Issue 20: under ADMIN_SECOND_FACTOR=required, only a session that proved a second factor administers.
      if (secondFactorRequired(app.config, auth.user) && !auth.secondFactor) {
        throw hasSecondFactor(await factorSummary(app.db, auth.user.id))
          ? secondFactorSessionRequired()
          : secondFactorSetupRequired();
      }
    });
  },
  { name: 'authentication' },
);
