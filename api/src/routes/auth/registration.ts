import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HttpError, messages } from '../../lib/errors.js';
import { e164Phone } from '../../lib/phone.js';
import { verificationCodeMail } from '../../domain/mail/templates.js';
import {
  EmailBody,
  EmailStatus,
  RegisterAnswer,
  RegisterBody,
  ResendAnswer,
  VerifiedRegistration,
  VerifyRegistrationBody,
} from '../../schemas/auth.js';
import { commonErrors, ErrorRef } from '../../schemas/common.js';
import { codeCooldownMs } from '../../domain/sign-in-limits/limits.js';
import { checkCode, issueCodeMail, releasingCooldown } from '../../domain/account-codes/code-mail.js';
import { completeRegistration, emailStatus, registerPending } from '../../domain/registration/register.js';
import { currentUserView, findUserByEmail, findUserById } from '../../domain/accounts/queries.js';
import { normalizeEmail } from '../../lib/email-address.js';
import { startSession } from '../../domain/sessions/sessions.js';
import { registerByInvitation } from '../../domain/registration/by-invitation.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const perIp = { rateLimit: { max: app.config.authRateLimitPerMinute, timeWindow: '1 minute' } };

  app.post(
    '/register',
    {
      config: perIp,
      schema: {
        summary: 'Crea una cuenta pendiente de verificación y envía el código por email',
        description:
          'Cada registro de un email pendiente es uno más (nunca cambia la contraseña de otro) y responde su ' +
          '`registrationId`: enviado con el código, activa la contraseña y los datos de este registro. El código se manda ' +
          'si pasó el minuto de espera desde el anterior. Con `codigoInvitacion` (el código de una invitación a una ' +
          'empresa enviada a este email) no se envía código: la cuenta queda activa, miembro de la empresa, y la ' +
          'respuesta trae `access_token` y `user` como la verificación.',
        tags: ['auth'],
        body: RegisterBody,
        response: { 201: RegisterAnswer, 409: ErrorRef, 429: ErrorRef, ...commonErrors },
      },
    },
    async (request, reply) => {
      const email = normalizeEmail(request.body.email);
      const { name, lastName, phone } = request.body;
      const profile = { name: name.trim(), lastName: lastName.trim(), phone: e164Phone(phone) };
      const passwordHash = await app.passwords.hash(request.body.password);
      const { codigoInvitacion } = request.body;
      if (codigoInvitacion !== undefined) {
        // The invitation's mail reached the address: no verification code, the account signs in at once.
        const joined = await registerByInvitation(
          app,
          email,
          { passwordHash, ...profile },
          codigoInvitacion,
          request.ip,
        );
        const user = await findUserById(app.db, joined.userId);
        // Suspended in the instant since (an administrator): no session, as for a verified registration.
        if (user?.status !== 'active') throw new HttpError(403, messages.suspended, 'USER_SUSPENDED');
        return reply.code(201).send({
          email,
          access_token: await startSession(app, user, request, { method: 'contrasena' }),
          user: await currentUserView(app.db, user),
          empresa: joined.empresa,
          rol: joined.rol,
        });
      }
      const now = new Date(app.clock());

      const { registrationId, mailed } = await registerPending(app, email, profile, passwordHash, now);
      if (mailed) {
        app.mailer.wake();
        // After the commit: `resend-verification` answers 429 for the next minute, as after any code mail.
        await app.limits
          .startCodeCooldown(email, 'verify_email')
          .catch((error: unknown) => request.log.warn({ err: error }, 'code cooldown not recorded'));
      }
      // When a code was mailed, the next one waits for the cooldown: the page counts it down from here.
      return reply
        .code(201)
        .send({ email, registrationId, resendAfter: mailed ? Math.ceil(codeCooldownMs / 1000) : 0 });
    },
  );

  app.post(
    '/verify-registration',
    {
      config: perIp,
      schema: {
        summary: 'Verifica el código de registro: activa la cuenta, asigna los planes gratuitos e inicia sesión',
        description:
          'Con el `registrationId` de este navegador la cuenta recibe la contraseña y los datos de ese registro; ' +
          'sin él (o con uno que no es de este email) recibe los de `profile`, escritos junto al código en otro ' +
          'dispositivo. Un `registrationId` que el servidor ya no tiene (caducó o lo desplazaron registros más ' +
          'nuevos) sin `profile` responde 409 `REGISTRATION_EXPIRED` sin gastar el código. Sin ninguno de los dos ' +
          'queda activa sin contraseña (`passwordSet: false`). Los demás registros pendientes se borran.',
        tags: ['auth'],
        body: VerifyRegistrationBody,
        response: { 200: VerifiedRegistration, 403: ErrorRef, 409: ErrorRef, 429: ErrorRef, ...commonErrors },
      },
    },
    async (request) => {
      const { code, registrationId, profile } = request.body;
      const email = normalizeEmail(request.body.email);
      // Typed data that cannot be stored is refused before the code is looked at: the code stays usable.
      const phone = profile ? e164Phone(profile.phone) : undefined;
      const user = await checkCode(app, email, await findUserByEmail(app.db, email), 'verify_email', code);
      // The code proves the mailbox: who holds it chooses the password and profile (docs/decisions/0006).
      const typed = profile && {
        passwordHash: await app.passwords.hash(profile.password),
        name: profile.name.trim(),
        lastName: profile.lastName.trim(),
        phone: phone as string,
      };
      const passwordSet = await completeRegistration(app, user.id, code, registrationId, typed);
      // Counted once used: a right code refused unused (REGISTRATION_EXPIRED) comes back with the profile.
      app.metrics.codeVerified('verify_email');
      const activated = await findUserById(app.db, user.id);
      // Only a pending account gets a verification code; one suspended meanwhile stays suspended.
      if (activated?.status !== 'active') {
        throw new HttpError(403, messages.suspended, 'USER_SUSPENDED');
      }
      return {
        access_token: await startSession(app, activated, request, { method: 'contrasena' }),
        user: await currentUserView(app.db, activated),
        passwordSet,
      };
    },
  );

  app.post(
    '/resend-verification',
    {
      config: perIp,
      schema: {
        summary: 'Envía un código de verificación nuevo a una cuenta pendiente',
        description: 'Responde igual para emails desconocidos o ya verificados.',
        tags: ['auth'],
        body: EmailBody,
        response: { 200: ResendAnswer, 429: ErrorRef, ...commonErrors },
      },
    },
    async (request) => {
      const email = normalizeEmail(request.body.email);
      const refused = await app.limits.reserveCodeMail(email, 'verify_email');
      if (refused) throw refused;
      app.mailer.later(
        releasingCooldown(app, email, 'verify_email', async () => {
          // The pending row's name is whatever the first registrant typed: not greeted (domain/mail/templates.ts).
          await issueCodeMail(app, email, 'verify_email', 'pending_verification', (_user, code) =>
            verificationCodeMail({ email, code, portalUrl: app.config.portalUrl }),
          );
        }),
      );
      return {
        message: 'Si la cuenta está pendiente de verificación, te enviamos un código nuevo.',
        resendAfter: Math.ceil(codeCooldownMs / 1000),
      };
    },
  );

  app.post(
    '/verificar-email',
    {
      config: perIp,
      schema: {
        summary: 'Dice si un email tiene cuenta y su estado (paso 1 del registro)',
        description: 'Responde `{ email, status }` o `null`; nada más sobre el usuario.',
        tags: ['auth'],
        body: EmailBody,
        response: { 200: EmailStatus, 429: ErrorRef, ...commonErrors },
      },
    },
    async (request) => {
      return emailStatus(app.db, normalizeEmail(request.body.email));
    },
  );
};

export default routes;
