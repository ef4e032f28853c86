import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { roles } from '../../db/schema.js';
import { accountSuspended, forbidden, HttpError, unauthenticated } from '../../lib/errors.js';
import { factorSummary, hasSecondFactor, secondFactorRequired } from '../../domain/second-factor/status.js';
import type { VerifiedToken } from '../../domain/sessions/verify.js';
import type { TokenKind } from '../../domain/tokens/jwt.js';
import { secondFactorMessages } from '../../domain/second-factor/messages.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * onRequest hook: 401 unless the request carries a valid bearer token; sets `request.auth`. Runs before the body is
     * parsed or validated, so an anonymous caller learns nothing of a route's schema. A callback hook: a session found
     * in memory is let through without a promise.
     */
    authenticate(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void;
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
  new HttpError(403, secondFactorMessages.secondFactorSetupRequired, 'SECOND_FACTOR_SETUP_REQUIRED');

/** An administrator with a second factor whose session did not prove it (a Google/Apple sign-in, say). */
export const secondFactorSessionRequired = () =>
  new HttpError(403, secondFactorMessages.secondFactorSessionRequired, 'SECOND_FACTOR_SESSION_REQUIRED');

/**
 * Makes every route of this plugin's scope administrator-only: a session is required (401 without one) and must be an
 * administrator's (403, the account's role read at each request). The one role check of the admin routes.
 */
export function adminOnly(app: FastifyInstance): void {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', app.requireAdmin);
}

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

    const refuse = async (reply: FastifyReply, token: string | undefined): Promise<never> => {
      // The portal session of an account suspended meanwhile: 403 USER_SUSPENDED, so the person learns why (the client
      // ends the session as it does on a 401; api/README "Suspended sessions"). A partner token stays a plain 401.
      if (token && (await app.tokens.refusedForSuspension(token, sessionOnly))) throw accountSuspended();
      reply.header('www-authenticate', 'Bearer');
      throw unauthenticated();
    };

    /**
     * The request's session, or the 401 (403 USER_SUSPENDED) that refuses it. A request that may change something
     * (anything but GET and HEAD) reads the database whatever this instance's memory holds (docs/decisions/0003).
     */
    const check = (request: FastifyRequest, reply: FastifyReply, fresh: boolean): void | Promise<void> => {
      const presented = bearer.exec(request.headers.authorization ?? '')?.[1];
      const token = presented && presented.length <= 4096 ? presented : undefined;
      const verified = token ? app.tokens.verify(token, acceptedTokens(request), { fresh }) : null;
      const settle = (auth: VerifiedToken | null) => {
        if (!auth) return refuse(reply, token);
        request.auth = auth;
      };
      return verified instanceof Promise ? verified.then(settle) : settle(verified);
    };

    app.decorate(
      'authenticate',
      function authenticate(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) {
        let pending: void | Promise<void>;
        try {
          pending = check(request, reply, request.method !== 'GET' && request.method !== 'HEAD');
        } catch (error) {
          done(error as Error);
          return;
        }
        if (pending) pending.then(() => done(), done);
        else done();
      },
    );

    app.decorate('requireAdmin', async function requireAdmin(request: FastifyRequest, reply: FastifyReply) {
      // The role (and the session) of an administrator check come from the database, never from memory alone: a
      // demotion or logout made on another instance counts here at once, even if its notification never arrives.
      // A partner token never administers, whoever it belongs to. Refusing on what memory says is safe; letting
      // through is not, so a session that would pass is read again from the database first.
      const administers = (auth: VerifiedToken) => auth.kind === 'session' && auth.user.role === roles.admin;
      if (!administers(signedIn(request))) throw forbidden();
      if (!signedIn(request).readFromDatabase) await check(request, reply, true);
      const auth = signedIn(request);
      if (!administers(auth)) throw forbidden();
      // Under ADMIN_SECOND_FACTOR=required, only a session that proved a second factor administers: a trusted device
      // never spares an administrator the factor (docs/decisions/0150-administrators-and-trusted-devices.md).
      if (secondFactorRequired(app.config, auth.user) && !auth.secondFactor) {
        throw hasSecondFactor(await factorSummary(app.db, auth.user.id))
          ? secondFactorSessionRequired()
          : secondFactorSetupRequired();
      }
    });
  },
  { name: 'authentication', dependencies: ['database', 'tokens'] },
);
