// Passkeys (docs/decisions/0018-passkeys.md). The 'Seguridad' tab lists, adds and removes them; a passkey signs in
// alone (discoverable credentials, also the browser's autofill) or as the second step of a password sign-in (with its
// ticket). Every WebAuthn check is @simplewebauthn/server's (domain/second-factor/passkeys.ts); the second step's
// ticket is the one the TOTP step redeems too (domain/second-factor/sign-in-tickets.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { accountSuspended, HttpError } from '../../lib/errors.js';
import { signedIn } from '../../plugins/app/authentication.js';
import {
  authenticationOptions,
  ceremonyExpired,
  consumeRegistration,
  consumeSignIn,
  findPasskeyOf,
  handleMatches,
  insertPasskey,
  listPasskeys,
  passkeyExists,
  passkeyNotFound,
  passkeyNotVerified,
  passkeySignInRefused,
  recordPasskeyUse,
  registrationOptions,
  removePasskey,
  responseUserHandle,
  verifyAssertion,
  verifyRegistration,
} from '../../domain/second-factor/passkeys.js';
import {
  factorSummary,
  keepOneFactor,
  requireVerifiedSessionToChangeFactors,
} from '../../domain/second-factor/status.js';
import { markSessionSecondFactor, queueSecurityChangeMail, startSession } from '../../domain/sessions/sessions.js';
import {
  redeemSignInTicket,
  signInTicketExpired,
  signInTicketUser,
} from '../../domain/second-factor/sign-in-tickets.js';
import { Session } from '../../schemas/auth.js';
import { commonErrors, ErrorRef } from '../../schemas/common.js';
import {
  AddPasskeyBody,
  CeremonyOptions,
  Passkey,
  PasskeyId,
  PasskeySignInBody,
  PasskeySignInOptionsBody,
  SessionPasskeyProofBody,
} from '../../schemas/security.js';
import { currentUserView, findUserById } from '../../domain/accounts/queries.js';
import { removeTrustedDevices } from '../../domain/second-factor/trusted-devices.js';
import { refuseForbiddenTrust, trustThisDevice } from './trusted-devices.js';

const security = [{ bearerAuth: [] }];

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const rp = app.config.webauthn;
  const errors = { 401: ErrorRef, 403: ErrorRef, ...commonErrors };

  app.get(
    '/passkeys',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Mis llaves de acceso, de la más antigua a la más reciente',
        tags: ['auth'],
        security,
        response: { 200: Type.Array(Passkey), ...errors },
      },
    },
    async (request) => listPasskeys(app.db, signedIn(request).user.id),
  );

  app.post(
    '/passkeys/opciones-registro',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Opciones para crear una llave de acceso en este navegador (válidas 5 minutos, solo en esta sesión)',
        tags: ['auth'],
        security,
        response: { 200: CeremonyOptions, ...errors },
      },
    },
    async (request) => {
      const auth = signedIn(request);
      await requireVerifiedSessionToChangeFactors(app.db, auth);
      return registrationOptions(app.db, rp, auth.user, auth.sessionId);
    },
  );

  app.post(
    '/passkeys',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Guarda la llave de acceso que creó el navegador con las opciones de registro de esta sesión',
        tags: ['auth'],
        security,
        body: AddPasskeyBody,
        response: { 201: Passkey, 409: ErrorRef, ...errors },
      },
    },
    async (request, reply) => {
      const auth = signedIn(request);
      const { user, sessionId } = auth;
      // Asked again here: a factor may have been added (in another session) since the options were given.
      await requireVerifiedSessionToChangeFactors(app.db, auth);
      const { ceremonyId, name, response } = request.body;
      const ceremony = await consumeRegistration(app.db, ceremonyId, user.id, sessionId);
      if (!ceremony) throw ceremonyExpired(400);
      const credential = await verifyRegistration(rp, response, ceremony.challenge);
      if (!credential) throw passkeyNotVerified();
      const passkey = await app.db.transaction(async (tx) => {
        const added = await insertPasskey(tx, user.id, name.trim(), credential);
        if (added)
          await queueSecurityChangeMail(app, tx, request, user, { kind: 'passkey-added', passkeyName: added.name });
        return added;
      });
      if (!passkey) throw passkeyExists();
      app.mailer.wake();
      // Creating a passkey with user verification proves the person holds it: this session counts as verified.
      await markSessionSecondFactor(app.db, sessionId);
      return reply.code(201).send(passkey);
    },
  );

  app.delete(
    '/passkeys/:id',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Quita una de mis llaves de acceso',
        tags: ['auth'],
        security,
        params: Type.Object({ id: PasskeyId }),
        response: {
          204: Type.Null({ description: 'Llave de acceso quitada' }),
          404: ErrorRef,
          409: ErrorRef,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const auth = signedIn(request);
      const { user } = auth;
      await requireVerifiedSessionToChangeFactors(app.db, auth);
      keepOneFactor(app.config, user, await factorSummary(app.db, user.id), 'passkey');
      const removed = await app.db.transaction(async (tx) => {
        const passkeyName = await removePasskey(tx, user.id, request.params.id);
        if (passkeyName !== undefined) {
          await queueSecurityChangeMail(app, tx, request, user, { kind: 'passkey-removed', passkeyName });
          // A factor removed ends the trusted devices: each was trusted on the strength of the factors as they were.
          await removeTrustedDevices(tx, user.id, 'factor_quitado');
        }
        return passkeyName !== undefined;
      });
      if (!removed) throw passkeyNotFound();
      app.mailer.wake();
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/segundo-factor/opciones-llave',
    {
      onRequest: app.authenticate,
      config: { rateLimit: { max: app.config.authRateLimitPerMinute, timeWindow: '1 minute' } },
      schema: {
        summary:
          'Opciones para que esta sesión pruebe un segundo factor con una llave de acceso de la cuenta (válidas 5 minutos)',
        tags: ['auth'],
        security,
        response: { 200: CeremonyOptions, 404: ErrorRef, 429: ErrorRef, ...errors },
      },
    },
    async (request) => {
      const { user } = signedIn(request);
      if ((await factorSummary(app.db, user.id)).passkeys === 0) throw passkeyNotFound();
      return authenticationOptions(app.db, rp, user.id);
    },
  );

  app.post(
    '/segundo-factor/verificar-llave',
    {
      onRequest: app.authenticate,
      config: { rateLimit: { max: app.config.loginRateLimitPerMinute, timeWindow: '1 minute' } },
      schema: {
        summary: 'Esta sesión prueba un segundo factor con una llave de acceso de la cuenta, cuando una app lo pide',
        tags: ['auth'],
        security,
        body: SessionPasskeyProofBody,
        response: { 204: Type.Null(), 429: ErrorRef, ...errors },
      },
    },
    async (request, reply) => {
      const { user, sessionId } = signedIn(request);
      const { ceremonyId, response, confiarDispositivo } = request.body;
      await refuseForbiddenTrust(app, user.id, confiarDispositivo);
      // Options made for this account, a passkey of this account, signed by it: the same checks as a sign-in's. A
      // refusal is a 400: the session itself stands.
      const ceremony = await consumeSignIn(app.db, ceremonyId);
      if (!ceremony || ceremony.userId !== user.id) throw ceremonyExpired(400);
      const passkey = await findPasskeyOf(app.db, response);
      if (passkey?.userId !== user.id) throw passkeyNotVerified();
      const handle = responseUserHandle(response);
      if (handle !== undefined && handle !== null && !handleMatches(handle, passkey.userId)) throw passkeyNotVerified();
      const used = await verifyAssertion(rp, response, ceremony.challenge, passkey);
      if (!used || !(await recordPasskeyUse(app.db, passkey.id, used))) throw passkeyNotVerified();
      await markSessionSecondFactor(app.db, sessionId);
      if (confiarDispositivo === true) await trustThisDevice(app, request, reply, user);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/passkeys/opciones-inicio',
    {
      config: { rateLimit: { max: app.config.authRateLimitPerMinute, timeWindow: '1 minute' } },
      schema: {
        summary:
          'Opciones para iniciar sesión con una llave de acceso (válidas 5 minutos); con el ticket de la contraseña, ' +
          'solo las llaves de esa cuenta',
        tags: ['auth'],
        body: PasskeySignInOptionsBody,
        response: { 200: CeremonyOptions, 401: ErrorRef, 429: ErrorRef, ...commonErrors },
      },
    },
    async (request) => {
      const { ticket } = request.body;
      let userId: number | null = null;
      if (ticket !== undefined) {
        const owner = await signInTicketUser(app.db, ticket);
        if (owner === undefined) throw signInTicketExpired();
        userId = owner;
      }
      return authenticationOptions(app.db, rp, userId);
    },
  );

  app.post(
    '/passkeys/iniciar-sesion',
    {
      config: { rateLimit: { max: app.config.loginRateLimitPerMinute, timeWindow: '1 minute' } },
      schema: {
        summary: 'Inicia sesión con una llave de acceso (sola, o como segundo paso con el ticket de la contraseña)',
        tags: ['auth'],
        body: PasskeySignInBody,
        response: { 200: Session, 401: ErrorRef, 403: ErrorRef, 429: ErrorRef, ...commonErrors },
      },
    },
    async (request, reply) => {
      const { ceremonyId, response, ticket, confiarDispositivo } = request.body;
      // As a second step (its options bound to one account) or on its own; counted once the ceremony is known.
      let method: 'passkey' | 'second_step' = 'passkey';
      try {
        const session = await signInWithPasskey();
        app.metrics.signIn(method, 'success');
        return session;
      } catch (error) {
        if (error instanceof HttpError && error.statusCode < 500)
          app.metrics.signIn(method, error.code === 'USER_SUSPENDED' ? 'refused' : 'failure');
        throw error;
      }

      async function signInWithPasskey() {
        const ceremony = await consumeSignIn(app.db, ceremonyId);
        if (!ceremony) throw ceremonyExpired(401);
        const passkey = await findPasskeyOf(app.db, response);
        if (!passkey) throw passkeySignInRefused();
        // A second step: the options named one account's passkeys and its live ticket must come along.
        const bound = ceremony.userId;
        if (bound !== null) {
          method = 'second_step';
          if (passkey.userId !== bound) throw passkeySignInRefused();
          if (ticket === undefined || (await signInTicketUser(app.db, ticket)) !== bound) throw signInTicketExpired();
          await refuseForbiddenTrust(app, bound, confiarDispositivo);
        }
        // The authenticator's user handle, when it gives one, must be the passkey's owner.
        const handle = responseUserHandle(response);
        if (handle !== undefined && handle !== null && !handleMatches(handle, passkey.userId))
          throw passkeySignInRefused();
        const used = await verifyAssertion(rp, response, ceremony.challenge, passkey);
        if (!used) throw passkeySignInRefused();
        const user = await findUserById(app.db, passkey.userId);
        if (!user) throw passkeySignInRefused();
        if (user.status === 'suspended') throw accountSuspended();
        if (user.status !== 'active') throw passkeySignInRefused();
        // The counter must still be below the new one when stored: two uses checked against the same one cannot both pass.
        if (!(await recordPasskeyUse(app.db, passkey.id, used))) throw passkeySignInRefused();
        if (bound !== null && (ticket === undefined || (await redeemSignInTicket(app.db, ticket)) !== bound))
          throw signInTicketExpired();
        await app.limits.clearSignInFailures(user.email, request.ip);
        const access_token = await startSession(app, user, request, {
          // A passkey as the second step after a password: the sign-in was the password's.
          method: bound === null ? 'llave' : 'contrasena',
          secondFactor: true,
        });
        // Only a second step asks no second factor next time: a passkey sign-in on its own never had one to skip.
        if (bound !== null && confiarDispositivo === true) await trustThisDevice(app, request, reply, user);
        return { access_token, user: await currentUserView(app.db, user) };
      }
    },
  );
};

export default routes;
