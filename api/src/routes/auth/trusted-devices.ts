// 'Seguridad''s trusted devices, and the cookie that makes a browser one (docs/decisions/0143-trusted-devices.md):
// set by a second step that ticked 'No volver a pedir en este dispositivo durante 30 días', read by the password
// sign-in (routes/auth/index.ts), which then asks no second step.
import { fastifyCookie as cookie } from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { signedIn } from '../../plugins/app/authentication.js';
import {
  listTrustedDevices,
  removeTrustedDevice,
  removeTrustedDevices,
  TRUSTED_DEVICE_COOKIE_DAYS,
  trustDevice,
  trustedDeviceCookie,
  trustedDevicesForbidden,
  trustRefusal,
} from '../../domain/second-factor/trusted-devices.js';
import { clientLabel, describeClient } from '../../domain/sessions/sessions.js';
import { commonErrors, ErrorRef } from '../../schemas/common.js';
import { TrustedDevice } from '../../schemas/security.js';

const security = [{ bearerAuth: [] }];

/**
 * The trusted device's cookie this request carried (the call sent the browser's cookies), or undefined. Read from the
 * header here: the routes that read and set it live in several plugins, not all with the cookie plugin.
 */
export const deviceCookieOf = (request: FastifyRequest): string | undefined =>
  request.headers.cookie === undefined ? undefined : cookie.parse(request.headers.cookie)[trustedDeviceCookie];

/**
 * A second step that asks to trust the device is refused before anything is spent (403 DISPOSITIVOS_NO_PERMITIDOS)
 * when a company of the person forbids trusted devices, or the person is a platform administrator.
 */
export async function refuseForbiddenTrust(app: FastifyInstance, userId: number, asked: boolean | undefined) {
  if (asked !== true) return;
  const refusal = await trustRefusal(app.db, userId);
  if (refusal) throw trustedDevicesForbidden(refusal);
}

/** The second factor was right and the person ticked the box: this browser becomes a trusted device (its cookie). */
export async function trustThisDevice(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: { id: number; tokenVersion: number },
): Promise<void> {
  const label = clientLabel(describeClient(request.headers['user-agent']));
  const { token } = await trustDevice(app.db, user, label);
  reply.header(
    'set-cookie',
    cookie.serialize(trustedDeviceCookie, token, {
      path: '/',
      httpOnly: true,
      secure: app.config.apiPublicUrl.startsWith('https://'),
      sameSite: 'lax',
      // Beyond the trust's 30 days, so a sign-in after them can still say why the code is asked (decision 0151).
      maxAge: TRUSTED_DEVICE_COOKIE_DAYS * 24 * 3600,
    }),
  );
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const errors = { 401: ErrorRef, 403: ErrorRef, ...commonErrors };

  app.get(
    '/dispositivos-confiables',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Mis dispositivos de confianza: donde no se pide el segundo factor durante 30 días',
        tags: ['auth'],
        security,
        response: { 200: Type.Array(TrustedDevice), ...errors },
      },
    },
    async (request) => listTrustedDevices(app.db, signedIn(request).user.id, deviceCookieOf(request)),
  );

  app.delete(
    '/dispositivos-confiables/:id',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Quita uno de mis dispositivos de confianza: volverá a pedir el segundo factor',
        tags: ['auth'],
        security,
        params: Type.Object(
          { id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) },
          { additionalProperties: false },
        ),
        response: { 204: Type.Null({ description: 'Dispositivo quitado' }), 404: ErrorRef, ...errors },
      },
    },
    async (request, reply) => {
      await removeTrustedDevice(app.db, signedIn(request).user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/dispositivos-confiables',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Quita todos mis dispositivos de confianza',
        tags: ['auth'],
        security,
        response: {
          200: Type.Object({ quitados: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
          ...errors,
        },
      },
    },
    async (request) => ({ quitados: await removeTrustedDevices(app.db, signedIn(request).user.id, 'quitado') }),
  );
};

export default routes;
