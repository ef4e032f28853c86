import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Jwk } from '../../schemas/well-known.js';
import { Type, type Static } from 'typebox';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/jwks.json',
    {
      schema: {
        summary: 'Claves públicas para verificar los tokens de acceso sin llamar a la API',
        tags: ['sistema'],
        response: { 200: Type.Object({ keys: Type.Array(Jwk) }, { additionalProperties: false }) },
      },
    },
    async (_request, reply) => {
      // Partner apps cache the keys; an hour keeps a rotated key from going unnoticed for long.
      reply.header('cache-control', 'public, max-age=3600');
      return app.tokens.jwks as { keys: Array<Static<typeof Jwk>> };
    },
  );
};

export default routes;
