import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { eq } from 'drizzle-orm'
import { users } from '../../db/schema.js'
import { HttpError } from '../../lib/errors.js'
import { verificationCodeMail } from '../../lib/mail-templates.js'
import {
  EmailBody, EmailStatus, Message, RegisterBody, RegisteredEmail, Session, VerifyRegistrationBody,
} from '../../schemas/auth.js'
import { commonErrors, ErrorRef } from '../../schemas/common.js'
import { checkCode, invalidCode, releasingCooldown } from './codes.js'
import { activateUser, currentUserView, findUserByEmail, findUserById, normalizeEmail } from './queries.js'

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const perIp = { rateLimit: { max: app.config.authRateLimitPerMinute, timeWindow: '1 minute' } }

  app.post('/register', {
    config: perIp,
    schema: {
      summary: 'Crea una cuenta pendiente de verificación y envía el código por email',
      description: 'Un email aún pendiente actualiza sus datos y contraseña y recibe un código nuevo (si pasó el minuto de espera).',
      tags: ['auth'],
      body: RegisterBody,
      response: { 201: RegisteredEmail, 409: ErrorRef, 429: ErrorRef, ...commonErrors },
    },
  }, async (request, reply) => {
    const email = normalizeEmail(request.body.email)
    const { name, lastName, phone } = request.body
    const profile = { name: name.trim(), lastName: lastName.trim(), phone: phone.trim() }
    const passwordHash = await app.passwords.hash(request.body.password)

    let reserved = false
    const mailed = await app.db.transaction(async (tx) => {
      // One statement decides between creating and updating, so concurrent registrations of one email end in one row.
      const [user] = await tx.insert(users)
        .values({ email, passwordHash, ...profile })
        .onConflictDoUpdate({
          target: users.email,
          set: { passwordHash, ...profile },
          setWhere: eq(users.status, 'pending_verification'),
        })
        .returning({ id: users.id, name: users.name })
      if (!user) throw new HttpError(409, 'Este email ya está registrado. Inicia sesión para continuar.', 'EMAIL_IN_USE')
      // Within the cooldown the code already mailed stays valid; no second mail.
      if (await app.limits.reserveCodeMail(email, 'verify_email')) return false
      reserved = true
      const code = await app.codes.issue(tx, user.id, 'verify_email')
      const mail = verificationCodeMail({ name: user.name, email, code, portalUrl: app.config.portalUrl })
      await app.mailer.enqueue(tx, { to: email, ...mail })
      return true
    }).catch(async (error: unknown) => {
      // The code and its mail were rolled back with the account (e.g. the database went away): without giving the
      // cooldown back, registering again would answer 201 and mail nothing for a minute.
      if (reserved) await app.limits.releaseCodeMail(email, 'verify_email').catch(() => {})
      throw error
    })
    if (mailed) app.mailer.wake()
    return reply.code(201).send({ email })
  })

  app.post('/verify-registration', {
    config: perIp,
    schema: {
      summary: 'Verifica el código de registro: activa la cuenta, asigna los planes gratuitos e inicia sesión',
      tags: ['auth'],
      body: VerifyRegistrationBody,
      response: { 200: Session, 403: ErrorRef, 429: ErrorRef, ...commonErrors },
    },
  }, async (request) => {
    const { code } = request.body
    const user = await checkCode(app, await findUserByEmail(app.db, normalizeEmail(request.body.email)), 'verify_email', code)
    await app.db.transaction(async (tx) => {
      if (!await app.codes.consume(tx, user.id, 'verify_email', code)) throw invalidCode()
      await activateUser(tx, user.id)
    })
    const activated = await findUserById(app.db, user.id)
    // Only a pending account gets a verification code; one suspended meanwhile stays suspended.
    if (activated?.status !== 'active') {
      throw new HttpError(403, 'Tu cuenta está suspendida. Contacta con soporte.', 'USER_SUSPENDED')
    }
    return { access_token: await app.tokens.sign(activated), user: await currentUserView(app.db, activated) }
  })

  app.post('/resend-verification', {
    config: perIp,
    schema: {
      summary: 'Envía un código de verificación nuevo a una cuenta pendiente',
      description: 'Responde igual para emails desconocidos o ya verificados.',
      tags: ['auth'],
      body: EmailBody,
      response: { 200: Message, 429: ErrorRef, ...commonErrors },
    },
  }, async (request) => {
    const email = normalizeEmail(request.body.email)
    const refused = await app.limits.reserveCodeMail(email, 'verify_email')
    if (refused) throw refused
    app.mailer.later(releasingCooldown(app, email, 'verify_email', async () => {
      const user = await findUserByEmail(app.db, email)
      if (user?.status !== 'pending_verification') return
      await app.db.transaction(async (tx) => {
        const code = await app.codes.issue(tx, user.id, 'verify_email')
        await app.mailer.enqueue(tx, { to: email, ...verificationCodeMail({ name: user.name, email, code, portalUrl: app.config.portalUrl }) })
      })
    }))
    return { message: 'Si la cuenta está pendiente de verificación, te enviamos un código nuevo.' }
  })

  app.post('/verificar-email', {
    config: perIp,
    schema: {
      summary: 'Dice si un email tiene cuenta y su estado (paso 1 del registro)',
      description: 'Responde `{ email, status }` o `null`; nada más sobre el usuario.',
      tags: ['auth'],
      body: EmailBody,
      response: { 200: EmailStatus, 429: ErrorRef, ...commonErrors },
    },
  }, async (request) => {
    const [user] = await app.db.select({ email: users.email, status: users.status })
      .from(users)
      .where(eq(users.email, normalizeEmail(request.body.email)))
    return user ?? null
  })
}

export default routes
