import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { portalSignInOf } from '../../domain/identity-provider/continuation.js';
import {
  answerDeviceRequest,
  type CodeTypist,
  describeDeviceRequest,
} from '../../domain/identity-provider/oidc/device.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { commonErrors, ErrorRef } from '../../schemas/common.js';
import { DeviceAnswer, DeviceAnswered, DeviceCodeTyped, DeviceRequestView } from '../../schemas/identity-provider.js';

const tags = ['openid-connect'];
const errors = {
  401: ErrorRef,
  403: ErrorRef,
  404: ErrorRef,
  409: ErrorRef,
  410: ErrorRef,
  429: ErrorRef,
  ...commonErrors,
};

/**
 * The portal's /dispositivo (docs/decisions/0086): a signed-in person types the code a device shows, sees the request,
 * and answers it. The code travels in the body, never in an address that logs keep.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, provider: app.identityProvider.provider, counters: app.counters, clock: app.clock };
  const perIp = { rateLimit: { max: app.config.authRateLimitPerMinute, timeWindow: '1 minute' } };
  const typist = (request: FastifyRequest): CodeTypist => portalSignInOf(signedIn(request), request.ip);

  app.post(
    '/consultar',
    {
      onRequest: app.authenticate,
      config: perIp,
      schema: {
        summary: 'Qué app pide acceso con este código de dispositivo, para qué y desde qué dirección',
        tags,
        security: [{ bearerAuth: [] }],
        body: DeviceCodeTyped,
        response: { 200: DeviceRequestView, ...errors },
      },
    },
    async (request) => describeDeviceRequest(deps, typist(request), request.body.codigo),
  );

  app.post(
    '/confirmar',
    {
      onRequest: app.authenticate,
      config: perIp,
      schema: {
        summary:
          'La persona permite o rechaza el acceso del dispositivo (el dispositivo recibe sus tokens, access_denied o unmet_authentication_requirements)',
        tags,
        security: [{ bearerAuth: [] }],
        body: DeviceAnswer,
        response: { 200: DeviceAnswered, ...errors },
      },
    },
    async (request) => {
      const { codigo, permitir, motivo } = request.body;
      await answerDeviceRequest(deps, typist(request), codigo, permitir, motivo === 'segundo_factor');
      return { resultado: permitir ? ('permitido' as const) : ('rechazado' as const) };
    },
  );
};

export default routes;
