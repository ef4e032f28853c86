import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { eq, sql } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { e164Phone } from '../../lib/phone.js';
import { verificationCodeMail } from '../../lib/mail-templates.js';
import {
  EmailBody,
  EmailStatus,
  RegisterBody,
  RegisteredEmail,
  ResendAnswer,
  VerifiedRegistration,
  VerifyRegistrationBody,
} from '../../schemas/auth.js';
import { commonErrors, ErrorRef } from '../../schemas/common.js';
import { codeCooldownMs } from '../../plugins/app/limits.js';
import { checkCode, invalidCode, issueCodeMail, releasingCooldown } from './codes.js';
import { addRegistration, findRegistration } from './pending-registrations.js';
import { activateUser, currentUserView, findUserByEmail, findUserById, normalizeEmail } from './queries.js';
import { startSession } from '../../plugins/app/sessions.js';

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
          'si pasó el minuto de espera desde el anterior.',
        tags: ['auth'],
        body: RegisterBody,
        response: { 201: RegisteredEmail, 409: ErrorRef, 429: ErrorRef, ...commonErrors },
      },
    },
    async (request, reply) => {
      const email = normalizeEmail(request.body.email);
      const { name, lastName, phone } = request.body;
      const profile = { name: name.trim(), lastName: lastName.trim(), phone: e164Phone(phone) };
      const passwordHash = await app.passwords.hash(request.body.password);
      const now = new Date(app.clock());

      const { registrationId, mailed } = await app.db.transaction(async (tx) => {
        // One statement decides between creating and locking the pending row, so concurrent registrations of one
        // email end in one row. The row has no password; a later registration does not change its profile either.
        const [user] = await tx
          .insert(users)
          .values({ email, ...profile })
          .onConflictDoUpdate({
            target: users.email,
            set: { email: sql`excluded.email` },
            setWhere: eq(users.status, 'pending_verification'),
          })
          .returning({ id: users.id });
        if (!user)
          throw new HttpError(409, 'Este email ya está registrado. Inicia sesión para continuar.', 'EMAIL_IN_USE');
        const registrationId = await addRegistration(tx, user.id, { passwordHash, ...profile }, now);
        // The cooldown lives with the code, in this transaction (issue 14, item 2): a crash before the commit leaves
        // neither, so registering again mails a code at once. Within it, the code already mailed stays valid.
        if (await app.codes.issuedWithin(tx, user.id, 'verify_email', codeCooldownMs))
          return { registrationId, mailed: false };
        if (await app.limits.countCodeMail(email)) return { registrationId, mailed: false };
        const code = await app.codes.issue(tx, user.id, 'verify_email');
        const mail = verificationCodeMail({ name: profile.name, email, code, portalUrl: app.config.portalUrl });
        await app.mailer.enqueue(tx, { to: email, ...mail });
        return { registrationId, mailed: true };
      });
      if (mailed) {
        app.mailer.wake();
        // After the commit: `resend-verification` answers 429 for the next minute, as after any code mail.
        await app.limits
          .startCodeCooldown(email, 'verify_email')
          .catch((error: unknown) => request.log.warn({ err: error }, 'code cooldown not recorded'));
      }
      // When a code was mailed, the next one waits for the cooldown: the page counts it down from here (issue 18, item 4).
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
          'sin él (o con uno que no es de este email) queda activa sin contraseña (`passwordSet: false`). Los demás ' +
          'registros pendientes se borran.',
        tags: ['auth'],
        body: VerifyRegistrationBody,
        response: { 200: VerifiedRegistration, 403: ErrorRef, 429: ErrorRef, ...commonErrors },
      },
    },
    async (request) => {
      const { code, registrationId } = request.body;
      const email = normalizeEmail(request.body.email);
      const user = await checkCode(app, email, await findUserByEmail(app.db, email), 'verify_email', code);
      const passwordSet = await app.db.transaction(async (tx) => {
        if (!(await app.codes.consume(tx, user.id, 'verify_email', code))) throw invalidCode();
        const registration = await findRegistration(tx, user.id, registrationId, new Date(app.clock()));
        if (!(await activateUser(tx, user.id))) return false;
        // Only what this browser typed becomes the account's; without its registration, nobody's profile does either.
        const { passwordHash = null, name = '', lastName = '', phone = '' } = registration ?? {};
        await tx.update(users).set({ passwordHash, name, lastName, phone }).where(eq(users.id, user.id));
        return passwordHash !== null;
      });
      const activated = await findUserById(app.db, user.id);
      // Only a pending account gets a verification code; one suspended meanwhile stays suspended.
      if (activated?.status !== 'active') {
        throw new HttpError(403, 'Tu cuenta está suspendida. Contacta con soporte.', 'USER_SUSPENDED');
      }
      return {
        access_token: await startSession(app, activated, request),
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
          await issueCodeMail(app, email, 'verify_email', 'pending_verification', (user, code) =>
            verificationCodeMail({ name: user.name, email, code, portalUrl: app.config.portalUrl }),
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
      const [user] = await app.db
        .select({ email: users.email, status: users.status })
        .from(users)
        .where(eq(users.email, normalizeEmail(request.body.email)));
      return user ?? null;
    },
  );
};

export default routes;
