// The 'Seguridad' tab's TOTP authenticator and recovery codes, and the second step of a password sign-in with one of
// them (docs/decisions/0017-second-factor.md). The passkey routes (passkeys.ts) are the other second factor; both
// redeem the same ticket.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { Type } from 'typebox';
import type { User } from '../../db/schema.js';
import { accountSuspended, type HttpError, messages, retryLater } from '../../lib/errors.js';
import { signedIn } from '../../plugins/app/authentication.js';
import {
  factorSummary,
  keepOneFactor,
  requireVerifiedSessionToChangeFactors,
  secondFactorRequired,
} from '../../domain/second-factor/status.js';
import { markSessionSecondFactor, queueSecurityChangeMail, startSession } from '../../domain/sessions/sessions.js';
import type { SignInAttempt } from '../../domain/sign-in-limits/limits.js';
import {
  endSignInTicket,
  redeemSignInTicket,
  signInTicketExpired,
  signInTicketUser,
  takeSignInTicketTry,
} from '../../domain/second-factor/sign-in-tickets.js';
import {
  confirmTotp,
  findTotpFactor,
  invalidSecondFactor,
  removeTotp,
  replaceRecoveryCodes,
  startTotp,
  totpAlreadyEnabled,
  totpNotEnabled,
  totpQrCode,
  totpUri,
  useSecondFactorCode,
  useTotpCode,
} from '../../domain/second-factor/totp.js';
import { Session } from '../../schemas/auth.js';
import { secondFactorMessages } from '../../domain/second-factor/messages.js';
import { commonErrors, ErrorRef } from '../../schemas/common.js';
import {
  RecoveryCodes,
  SecondFactorCodeBody,
  SecondStepBody,
  SessionCodeProofBody,
  SecurityStatus,
  TotpCodeBody,
  TotpSetup,
} from '../../schemas/security.js';
import { recordMemberFailure } from '../../domain/audit/member-failures.js';
import { recordLockout, refusedSignIn } from '../../domain/sign-in-limits/lockouts.js';
import { currentUserView, findUserById } from '../../domain/accounts/queries.js';
import { removeTrustedDevices, sessionAdmittedByTrustedDevice } from '../../domain/second-factor/trusted-devices.js';
import { refuseForbiddenTrust, trustThisDevice } from './trusted-devices.js';

const security = [{ bearerAuth: [] }];

/** A wrong code at the second step: 401, not 400, as a wrong password is; `retryAfter` once a sign-in lock started. */
const wrongSecondStepCode = (lockedMs: number) =>
  refusedSignIn(secondFactorMessages.invalidSecondFactor, 'INVALID_SECOND_FACTOR', lockedMs);

/** The account a live ticket belongs to (without using the ticket), or 401 SIGN_IN_TICKET_EXPIRED. */
export async function secondStepUser(app: FastifyInstance, ticket: string): Promise<User> {
  const userId = await signInTicketUser(app.db, ticket);
  const user = userId === undefined ? undefined : await findUserById(app.db, userId);
  if (!user) throw signInTicketExpired();
  return user;
}

/**
 * The second step's code may be looked at: one sign-in attempt of the address taken (the sign-in lock guards the
 * second step as it guards the password: 401 with `retryAfter`), then one of the ticket's tries, both before the code
 * is compared. A ticket without a try left is refused unevaluated (SIGN_IN_TICKET_EXPIRED).
 */
export async function takeSecondStepTry(
  app: FastifyInstance,
  request: FastifyRequest,
  ticket: string,
  user: User,
): Promise<{ attempt: SignInAttempt; triesLeft: number }> {
  const reserved = await app.limits.reserveSignIn(user.email, request.ip);
  if ('lockedMs' in reserved) {
    app.metrics.signIn('second_step', 'locked');
    throw wrongSecondStepCode(reserved.lockedMs);
  }
  const tried = await takeSignInTicketTry(app.db, ticket).catch(async (error: unknown) => {
    await app.limits.releaseUnsettled(reserved.attempt);
    throw error;
  });
  if (tried?.userId !== user.id) {
    await app.limits.giveBackSignIn(reserved.attempt);
    throw signInTicketExpired();
  }
  return { attempt: reserved.attempt, triesLeft: tried.triesLeft };
}

/**
 * A wrong second factor: its try on the ticket and its sign-in attempt stay spent (the same counter as a wrong
 * password, with its lockout on record). Answers the error to throw: 401 INVALID_SECOND_FACTOR, or
 * SIGN_IN_TICKET_EXPIRED when that was the ticket's last try (the ticket is then gone).
 */
export async function failSecondStep(
  app: FastifyInstance,
  request: FastifyRequest,
  ticket: string,
  user: User,
  taken: { attempt: SignInAttempt; triesLeft: number },
): Promise<HttpError> {
  if (taken.triesLeft === 0) await endSignInTicket(app.db, ticket);
  const { lockMs, lockout } = await app.limits.failedSignIn(taken.attempt);
  app.metrics.signIn('second_step', 'failure');
  await recordMemberFailure(app.db, user.id, 'auth.second_factor_failure', { address: request.ip });
  if (lockout) await recordLockout(app.db, user.id, request.ip, lockout);
  return taken.triesLeft > 0 ? wrongSecondStepCode(lockMs) : signInTicketExpired();
}

/**
 * The second factor was right: uses the ticket up, its taken try included (a concurrent redemption that won leaves
 * SIGN_IN_TICKET_EXPIRED), and starts a session that proved a second factor; with `trust`, this browser becomes a
 * trusted device (its cookie on `reply`).
 */
export async function finishSecondStep(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  ticket: string,
  attempt: SignInAttempt,
  trust: boolean | undefined,
): Promise<Static<typeof Session>> {
  const userId = await redeemSignInTicket(app.db, ticket, true);
  const user = userId === undefined ? undefined : await findUserById(app.db, userId);
  if (!user || user.status === 'suspended') {
    await app.limits.giveBackSignIn(attempt);
    if (user) app.metrics.signIn('second_step', 'refused');
    throw user ? accountSuspended() : signInTicketExpired();
  }
  await app.limits.succeededSignIn(attempt);
  app.metrics.signIn('second_step', 'success');
  const access_token = await startSession(app, user, request, { method: 'contrasena', secondFactor: true });
  if (trust === true) await trustThisDevice(app, request, reply, user);
  return { access_token, user: await currentUserView(app.db, user) };
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const perIp = { rateLimit: { max: app.config.authRateLimitPerMinute, timeWindow: '1 minute' } };
  const errors = { 401: ErrorRef, 403: ErrorRef, ...commonErrors };

  /**
   * A wrong code for a factor the account already has, from a signed-in session: counted as a wrong password, so a
   * stolen session is no way around the sign-in lock (as a password change).
   */
  const guardedCode = async (request: FastifyRequest, user: User, use: () => Promise<boolean>) => {
    const reserved = await app.limits.reserveSignIn(user.email, request.ip);
    if ('lockedMs' in reserved) {
      const { lockedMs } = reserved;
      throw retryLater(429, messages.tooManyRequests(Math.ceil(lockedMs / 1000)), 'ACCOUNT_LOCKED', lockedMs);
    }
    try {
      // Right: the attempt is given back, as if never made (a code here forgets no failures).
      if (await use()) return app.limits.giveBackSignIn(reserved.attempt);
      const { lockout } = await app.limits.failedSignIn(reserved.attempt);
      await recordMemberFailure(app.db, user.id, 'auth.second_factor_failure', { address: request.ip });
      if (lockout) await recordLockout(app.db, user.id, request.ip, lockout);
      throw invalidSecondFactor();
    } finally {
      await app.limits.releaseUnsettled(reserved.attempt);
    }
  };

  app.get(
    '/seguridad',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Mis segundos factores y si esta sesión probó uno',
        tags: ['auth'],
        security,
        response: { 200: SecurityStatus, ...errors },
      },
    },
    async (request) => {
      const { user, secondFactor, sessionId } = signedIn(request);
      const summary = await factorSummary(app.db, user.id);
      return {
        ...summary,
        secondFactorRequired: secondFactorRequired(app.config, user),
        sessionVerified: secondFactor,
        sessionTrustedDevice: !secondFactor && (await sessionAdmittedByTrustedDevice(app.db, sessionId)),
      };
    },
  );

  app.post(
    '/totp',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Genera el secreto y el código QR de una aplicación de autenticación (sin confirmar)',
        tags: ['auth'],
        security,
        response: { 200: TotpSetup, 409: ErrorRef, ...errors },
      },
    },
    async (request) => {
      const auth = signedIn(request);
      const { user } = auth;
      await requireVerifiedSessionToChangeFactors(app.db, auth);
      const secret = await startTotp(app.db, user.id);
      if (!secret) throw totpAlreadyEnabled();
      const otpauthUrl = totpUri(app.config.webauthn.rpName, user.email, secret);
      return { secret, otpauthUrl, qrCode: await totpQrCode(otpauthUrl) };
    },
  );

  app.post(
    '/totp/confirmar',
    {
      onRequest: app.authenticate,
      config: perIp,
      schema: {
        summary: 'Confirma la aplicación de autenticación con su primer código; responde 10 códigos de recuperación',
        tags: ['auth'],
        security,
        body: TotpCodeBody,
        response: { 200: RecoveryCodes, 404: ErrorRef, 409: ErrorRef, 429: ErrorRef, ...errors },
      },
    },
    async (request) => {
      const auth = signedIn(request);
      const { user, sessionId } = auth;
      // Asked again here: a passkey may have been added (in another session) since the secret was made.
      await requireVerifiedSessionToChangeFactors(app.db, auth);
      const recoveryCodes = await app.db.transaction(async (tx) => {
        await confirmTotp(tx, user.id, request.body.code, app.clock());
        await queueSecurityChangeMail(app, tx, request, user, { kind: 'totp-added' });
        return replaceRecoveryCodes(tx, user.id);
      });
      app.mailer.wake();
      // Showing a code of the app proves the person holds it: this session goes on as one with a second factor.
      await markSessionSecondFactor(app.db, sessionId);
      return { recoveryCodes };
    },
  );

  app.delete(
    '/totp',
    {
      onRequest: app.authenticate,
      config: perIp,
      schema: {
        summary:
          'Quita la aplicación de autenticación y sus códigos de recuperación (con un código de la app o uno de recuperación)',
        tags: ['auth'],
        security,
        body: SecondFactorCodeBody,
        response: {
          204: Type.Null({ description: 'Aplicación de autenticación quitada' }),
          404: ErrorRef,
          409: ErrorRef,
          429: ErrorRef,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { user } = signedIn(request);
      const factor = await findTotpFactor(app.db, user.id);
      if (!factor?.confirmedAt) throw totpNotEnabled();
      keepOneFactor(app.config, user, await factorSummary(app.db, user.id), 'totp');
      await guardedCode(request, user, () => useSecondFactorCode(app.db, user.id, request.body.code, app.clock()));
      // Removed with its recovery codes: they were a way around this authenticator only. A factor removed ends the
      // trusted devices too: each was trusted on the strength of the factors as they were.
      await app.db.transaction(async (tx) => {
        await removeTotp(tx, user.id);
        await removeTrustedDevices(tx, user.id, 'factor_quitado');
        await queueSecurityChangeMail(app, tx, request, user, { kind: 'totp-removed' });
      });
      app.mailer.wake();
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/codigos-recuperacion',
    {
      onRequest: app.authenticate,
      config: perIp,
      schema: {
        summary: 'Genera 10 códigos de recuperación nuevos (los anteriores dejan de valer)',
        tags: ['auth'],
        security,
        body: TotpCodeBody,
        response: { 200: RecoveryCodes, 404: ErrorRef, 429: ErrorRef, ...errors },
      },
    },
    async (request) => {
      const { user } = signedIn(request);
      const factor = await findTotpFactor(app.db, user.id);
      if (!factor?.confirmedAt) throw totpNotEnabled();
      await guardedCode(request, user, () => useTotpCode(app.db, user.id, request.body.code, app.clock()));
      const codes = await app.db.transaction(async (tx) => {
        await queueSecurityChangeMail(app, tx, request, user, { kind: 'recovery-codes-replaced' });
        return replaceRecoveryCodes(tx, user.id);
      });
      app.mailer.wake();
      return { recoveryCodes: codes };
    },
  );

  app.post(
    '/segundo-factor/verificar',
    {
      onRequest: app.authenticate,
      config: perIp,
      schema: {
        summary:
          'Esta sesión prueba un segundo factor (un código de la aplicación o de recuperación), cuando una app lo pide',
        tags: ['auth'],
        security,
        body: SessionCodeProofBody,
        response: { 204: Type.Null(), 404: ErrorRef, 429: ErrorRef, ...errors },
      },
    },
    async (request, reply) => {
      const { user, sessionId } = signedIn(request);
      const factors = await factorSummary(app.db, user.id);
      if (!factors.totp && factors.recoveryCodesLeft === 0) throw totpNotEnabled();
      await refuseForbiddenTrust(app, user.id, request.body.confiarDispositivo);
      // A wrong code counts as a wrong password: a stolen session is no way around the sign-in lock.
      await guardedCode(request, user, () => useSecondFactorCode(app.db, user.id, request.body.code, app.clock()));
      await markSessionSecondFactor(app.db, sessionId);
      if (request.body.confiarDispositivo === true) await trustThisDevice(app, request, reply, user);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/login/segundo-paso',
    {
      config: { rateLimit: { max: app.config.loginRateLimitPerMinute, timeWindow: '1 minute' } },
      schema: {
        summary: 'Segundo paso del inicio de sesión: el ticket y un código de la aplicación o de recuperación',
        tags: ['auth'],
        body: SecondStepBody,
        response: { 200: Session, 401: ErrorRef, 403: ErrorRef, 429: ErrorRef, ...commonErrors },
      },
    },
    async (request, reply) => {
      const { ticket, code, confiarDispositivo } = request.body;
      const user = await secondStepUser(app, ticket);
      await refuseForbiddenTrust(app, user.id, confiarDispositivo);
      const taken = await takeSecondStepTry(app, request, ticket, user);
      try {
        if (!(await useSecondFactorCode(app.db, user.id, code, app.clock())))
          throw await failSecondStep(app, request, ticket, user, taken);
        return await finishSecondStep(app, request, reply, ticket, taken.attempt, confiarDispositivo);
      } finally {
        await app.limits.releaseUnsettled(taken.attempt);
      }
    },
  );
};

export default routes;
