import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HttpError, messages, retryLater } from '../../lib/errors.js';
import { resetCodeMail } from '../../domain/mail/templates.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { ChangePasswordBody, EmailBody, Message, PasswordUpdated, UpdatePasswordBody } from '../../schemas/auth.js';
import { commonErrors, ErrorRef } from '../../schemas/common.js';
import { replacePassword, resetPassword } from '../../domain/accounts/passwords.js';
import { checkCode, issueCodeMail, releasingCooldown } from '../../domain/account-codes/code-mail.js';
import { findUserByEmail } from '../../domain/accounts/queries.js';
import { normalizeEmail } from '../../lib/email-address.js';
import { startSession } from '../../domain/sessions/sessions.js';
import { wayOfSession } from '../../domain/sign-in-limits/company-rules.js';
import { accountMessages } from '../../domain/accounts/messages.js';

const bearerAuth = [{ bearerAuth: [] }];

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const perIp = { rateLimit: { max: app.config.authRateLimitPerMinute, timeWindow: '1 minute' } };

  app.post(
    '/forgot-password',
    {
      config: perIp,
      schema: {
        summary: 'Envía un código para cambiar la contraseña',
        description: 'Responde lo mismo exista o no la cuenta.',
        tags: ['auth'],
        body: EmailBody,
        response: { 200: Message, 429: ErrorRef, ...commonErrors },
      },
    },
    async (request) => {
      const email = normalizeEmail(request.body.email);
      const refused = await app.limits.reserveCodeMail(email, 'reset_password');
      if (refused) throw refused;
      app.mailer.later(
        releasingCooldown(app, email, 'reset_password', async () => {
          await issueCodeMail(app, email, 'reset_password', 'active', (user, code) =>
            resetCodeMail({ name: user.name, email, code, portalUrl: app.config.portalUrl }),
          );
        }),
      );
      return { message: 'Si el email está registrado, te enviamos un código para cambiar la contraseña.' };
    },
  );

  app.post(
    '/change-password',
    {
      config: perIp,
      schema: {
        summary: 'Cambia la contraseña con el código recibido por email; cierra todas las sesiones',
        tags: ['auth'],
        body: ChangePasswordBody,
        response: { 200: Message, 429: ErrorRef, ...commonErrors },
      },
    },
    async (request) => {
      const email = normalizeEmail(request.body.email);
      const { code } = request.body;
      const user = await checkCode(app, email, await findUserByEmail(app.db, email), 'reset_password', code);
      // Hashed before the transaction: argon2 takes a while and the transaction should not wait for it.
      const passwordHash = await app.passwords.hash(request.body.newPassword);
      await resetPassword(app, user.id, code, passwordHash);
      app.metrics.codeVerified('reset_password');
      // Whoever proves the mailbox may sign in again straight away, from here and past the account throttle.
      await app.limits.clearSignInFailures(email, request.ip, { everywhere: true });
      return { message: 'Contraseña cambiada correctamente. Ya puedes iniciar sesión.' };
    },
  );

  app.route({
    method: ['PUT', 'POST'],
    url: '/update-password',
    onRequest: app.authenticate,
    schema: {
      summary: 'Cambia la contraseña de la sesión; las demás sesiones terminan',
      description: 'Responde un token nuevo para seguir en esta sesión (el presentado deja de valer).',
      tags: ['auth'],
      security: bearerAuth,
      body: UpdatePasswordBody,
      response: { 200: PasswordUpdated, 401: ErrorRef, 429: ErrorRef, ...commonErrors },
    },
    handler: async (request) => {
      const { user } = signedIn(request);
      // A stolen session must not become a way around the sign-in lock: the same counter guards both, its attempt
      // taken before argon2 runs.
      const reserved = await app.limits.reserveSignIn(user.email, request.ip);
      if ('lockedMs' in reserved) {
        const { lockedMs } = reserved;
        throw retryLater(429, messages.tooManyRequests(Math.ceil(lockedMs / 1000)), 'ACCOUNT_LOCKED', lockedMs);
      }
      const { attempt } = reserved;
      try {
        if (user.passwordHash === null) {
          await app.limits.giveBackSignIn(attempt);
          throw new HttpError(400, accountMessages.noPassword, 'NO_PASSWORD');
        }
        if (!(await app.passwords.verify(user.passwordHash, request.body.currentPassword))) {
          await app.limits.failedSignIn(attempt);
          // Not 401: the client would take it for an expired session and sign the user out.
          throw new HttpError(400, accountMessages.invalidCurrentPassword, 'INVALID_CURRENT_PASSWORD');
        }
        await app.limits.succeededSignIn(attempt);
      } finally {
        await app.limits.releaseUnsettled(attempt);
      }
      const passwordHash = await app.passwords.hash(request.body.newPassword);
      const updated = await replacePassword(app.db, user, passwordHash);
      // Another password change won the race and already ended this session.
      if (!updated) throw new HttpError(401, messages.unauthenticated, 'UNAUTHENTICATED');
      return {
        message: 'Contraseña actualizada correctamente',
        // The new session keeps this one's proof of a second factor: a password change is no sign-in.
        access_token: await startSession(app, updated, request, {
          // The fresh token continues the session the change was made in: its way in stays the same.
          ...wayOfSession(signedIn(request)),
          secondFactor: signedIn(request).secondFactor,
        }),
      };
    },
  });
};

export default routes;
