import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { lt } from 'drizzle-orm';
import { Type } from 'typebox';
import { revokedTokens } from '../../db/schema.js';
import { accountSuspended, HttpError } from '../../lib/errors.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { CurrentUser, LoginBody, PendingSignIn, Session } from '../../schemas/auth.js';
import { SecondStepRequired } from '../../schemas/security.js';
import { commonErrors, ErrorRef } from '../../schemas/common.js';
import accountStatusRoutes from './account-status.js';
import companySsoRoutes from './company.js';
import oauthRoutes from './oauth/index.js';
import partnerTokenRoutes from './partner-token.js';
import passkeyRoutes from './passkeys.js';
import authorizedAppRoutes from './authorized-apps.js';
import passwordRoutes from './passwords.js';
import profileRoutes from './profile.js';
import { startLogoutChain } from '../../domain/identity-provider/saml/front-logout.js';
import { recordLockout, refusedSignIn } from '../../domain/sign-in-limits/lockouts.js';
import { accountMessages } from '../../domain/accounts/messages.js';
import { connectionForEmail } from '../../domain/companies/sso/connections.js';
import { ssoMessages } from '../../domain/companies/sso/messages.js';
import { registrationWithPassword } from '../../domain/registration/pending-registrations.js';
import { type CurrentUserView, currentUserView, findUserByEmail } from '../../domain/accounts/queries.js';
import { normalizeEmail } from '../../lib/email-address.js';
import { cachedCurrentUserView } from '../../domain/sessions/memory.js';
import registrationRoutes from './registration.js';
import secondFactorRoutes from './second-factor.js';
import sessionRoutes from './sessions.js';
import { factorSummary, hasSecondFactor, secondFactorMethodsOf } from '../../domain/second-factor/status.js';
import { endSession, startSession } from '../../domain/sessions/sessions.js';
import { issueSignInTicket } from '../../domain/second-factor/sign-in-tickets.js';
import { recordMemberFailure, refusalOnRecord } from '../../domain/audit/member-failures.js';
import { enforceCompanyRules } from '../../domain/sign-in-limits/company-rules.js';
import { checkTrustedDevice, trustedDevicesAllowed } from '../../domain/second-factor/trusted-devices.js';
import { trustedDeviceStoppedMessages } from '../../domain/second-factor/messages.js';
import trustedDeviceRoutes, { deviceCookieOf } from './trusted-devices.js';

const bearerAuth = [{ bearerAuth: [] }];

/** GET /auth/user's answers by the view they were made from (a view kept in memory is the same object each time). */
const serializedViews = new WeakMap<CurrentUserView, string>();

/** One answer for an unknown email, a wrong password and a locked account; the lock adds when to retry. */
const invalidCredentials = (lockedMs: number) =>
  refusedSignIn(accountMessages.invalidCredentials, 'INVALID_CREDENTIALS', lockedMs);

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/login',
    {
      config: { rateLimit: { max: app.config.loginRateLimitPerMinute, timeWindow: '1 minute' } },
      schema: {
        summary: 'Inicia sesión con email y contraseña',
        tags: ['auth'],
        body: LoginBody,
        // The user beside the token (as verification answers), so a sign-in is one round trip.
        // 403: a registration waiting for its code, a suspended account, or the second step to ask.
        response: {
          200: Session,
          401: ErrorRef,
          403: Type.Union([SecondStepRequired, PendingSignIn]),
          429: ErrorRef,
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const email = normalizeEmail(request.body.email);
      // A company that asks its people to come in through its own provider: refused before any account is read or any
      // password checked, so the answer is the same whether the account exists or not.
      const company = await connectionForEmail(app.db, email);
      if (company && !company.allowPassword) {
        app.metrics.signIn('password', 'refused');
        throw new HttpError(403, ssoMessages.passwordRefused(company.name), 'ACCESO_EMPRESA_OBLIGATORIO');
      }
      // The account is looked up before the attempt is taken: a lookup that hangs with the database holds no slot,
      // so an outage answers 503 and never starts a lock (known account or not, the same lookup runs).
      const user = await findUserByEmail(app.db, email);
      // A locked address gets the wrong-password answer plus when to retry, known account or not. The attempt is
      // taken before argon2 runs, so a burst gets no more passwords evaluated than the lock allows one by one.
      const reserved = await app.limits.reserveSignIn(email, request.ip);
      if ('lockedMs' in reserved) {
        app.metrics.signIn('password', 'locked');
        throw invalidCredentials(reserved.lockedMs);
      }
      const { attempt } = reserved;
      // An attempt the request never settles (the database failed after all) is given back: an outage is no failure.
      try {
        const failed = async () => {
          const { lockMs, lockout } = await app.limits.failedSignIn(attempt);
          app.metrics.signIn('password', 'failure');
          if (user) await recordMemberFailure(app.db, user.id, 'auth.sign_in_failure', { address: request.ip });
          if (lockout && user) await recordLockout(app.db, user.id, request.ip, lockout);
          // An active account with no password (activated by an administrator, or made with Google or Apple): no
          // password can be right, so the answer says how to choose one, which needs the mailbox. It counts as a
          // failure like any other, and a lock answers as for any address.
          if (lockMs === 0 && user?.status === 'active' && user.passwordHash === null)
            return new HttpError(401, accountMessages.passwordNotSet, 'PASSWORD_NOT_SET');
          return invalidCredentials(lockMs);
        };
        if (user?.status === 'pending_verification') {
          // A pending account has no password of its own: the password of one of its registrations proves that
          // registration, whose id the verification page then sends with the code.
          const registrationId = await registrationWithPassword(app, user.id, request.body.password);
          if (!registrationId) throw await failed();
          await app.limits.succeededSignIn(attempt);
          app.metrics.signIn('password', 'refused');
          return reply.code(403).send({
            statusCode: 403,
            message: 'Debes verificar tu email antes de iniciar sesión',
            code: 'EMAIL_NOT_VERIFIED',
            registrationId,
          });
        }
        // Always one argon2 verification, known email or not, so the response time does not reveal accounts.
        const passwordMatches = await app.passwords.verify(user?.passwordHash, request.body.password);
        if (!user || !passwordMatches) throw await failed();
        if (user.status === 'suspended') {
          await app.limits.succeededSignIn(attempt);
          app.metrics.signIn('password', 'refused');
          throw accountSuspended();
        }
        // An account with a second factor gets a ticket for the second step, no token. Its failures are
        // forgotten only once that step succeeds: a wrong code counts as a wrong password, and signing in again with
        // the password must not reset the count (routes/auth/second-factor.ts).
        // The rules of the person's companies, before a second step that could only end refused.
        await enforceCompanyRules(app.db, user.id, { method: 'contrasena', ssoCompanyId: null }, request.ip).catch(
          (error) => refusalOnRecord(app.db, user.id, error, { address: request.ip, metodo: 'contrasena' }),
        );
        const factors = await factorSummary(app.db, user.id);
        // A trusted device of this account (its cookie came along) skips the second step, without the session having
        // proved a factor (docs/decisions/0143-trusted-devices.md); one that no longer counts says why (0151).
        const device = hasSecondFactor(factors)
          ? await checkTrustedDevice(app.db, user.id, deviceCookieOf(request))
          : undefined;
        const trustedDeviceId = device && 'id' in device ? device.id : undefined;
        if (hasSecondFactor(factors) && trustedDeviceId === undefined) {
          // The password was right: its attempt is given back, the failures before it stay until the second step.
          await app.limits.giveBackSignIn(attempt);
          app.metrics.signIn('password', 'second_step');
          return reply.code(403).send({
            statusCode: 403,
            message: 'Confirma tu identidad con tu segundo factor',
            code: 'SECOND_FACTOR_REQUIRED',
            ticket: await issueSignInTicket(app.db, user.id),
            methods: secondFactorMethodsOf(factors),
            permiteConfiarDispositivo: await trustedDevicesAllowed(app.db, user.id),
            ...(device && 'stopped' in device
              ? {
                  dispositivoNoConfiable: {
                    motivo: device.stopped,
                    mensaje: trustedDeviceStoppedMessages[device.stopped],
                  },
                }
              : {}),
          });
        }
        await app.limits.succeededSignIn(attempt);
        app.metrics.signIn('password', 'success');
        return {
          access_token: await startSession(app, user, request, { method: 'contrasena', trustedDeviceId }),
          user: await currentUserView(app.db, user),
        };
      } finally {
        await app.limits.releaseUnsettled(attempt);
      }
    },
  );

  app.get(
    '/user',
    {
      onRequest: app.authenticate,
      // Also what a partner app reads with the scoped token it received (api/README.md).
      config: { partnerToken: true },
      schema: {
        summary: 'El usuario de la sesión (o del token de una app asociada), con su plan en cada app',
        tags: ['auth'],
        security: bearerAuth,
        response: { 200: CurrentUser, 401: ErrorRef, ...commonErrors },
      },
    },
    async (request, reply) => {
      const view = await cachedCurrentUserView(app.db, app.sessionState, signedIn(request).user, app.clock());
      // The view is kept in the session memory between requests; so is its JSON, made once by the route's serializer.
      let json = serializedViews.get(view);
      if (json === undefined) {
        json = reply.serialize(view) as string;
        serializedViews.set(view, json);
      }
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );

  app.post(
    '/logout',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Cierra la sesión: el token presentado deja de ser válido',
        description:
          'Con aplicaciones SAML de esta sesión que solo publican el cierre HTTP-Redirect, responde 200 con la ' +
          'dirección de la API por la que el navegador lleva ese cierre a cada una (y termina en /login).',
        tags: ['auth'],
        security: bearerAuth,
        response: {
          200: Type.Object({
            siguiente: Type.String({ description: 'Adónde va el navegador: la cadena de cierre SAML de la API' }),
          }),
          204: Type.Null({ description: 'Sesión cerrada' }),
          401: ErrorRef,
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const { user, sessionId } = signedIn(request);
      // Ending the session row refuses this token and the partner tokens minted from it, on every instance.
      await endSession(app.db, user.id, sessionId);
      // Logouts from before sessions existed were kept here; past their expiry they are rejected anyway.
      await app.db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, new Date()));
      const siguiente = await startLogoutChain(
        { db: app.db, key: app.samlIdp.key, apiPublicUrl: app.config.apiPublicUrl, portalUrl: app.config.portalUrl },
        sessionId,
      );
      if (siguiente) return reply.code(200).send({ siguiente });
      return reply.code(204).send(null);
    },
  );

  await app.register(registrationRoutes);
  await app.register(passwordRoutes);
  await app.register(profileRoutes);
  await app.register(oauthRoutes);
  await app.register(companySsoRoutes);
  await app.register(partnerTokenRoutes);
  await app.register(accountStatusRoutes);
  await app.register(sessionRoutes);
  await app.register(secondFactorRoutes);
  await app.register(passkeyRoutes);
  await app.register(trustedDeviceRoutes);
  await app.register(authorizedAppRoutes);
};

export default routes;
