import cors from '@fastify/cors';
import fp from 'fastify-plugin';

export default fp(
  async (app) => {
    await app.register(cors, {
      origin: app.config.corsOrigins,
      // The portal and the remotes send the bearer token from other origins; credentials allow cookies later.
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowedHeaders: ['Authorization', 'Content-Type'],
      maxAge: 600,
      // An OPTIONS without Origin is no browser's preflight: answered 204 without CORS headers, not with English text.
      strictPreflight: false,
    });
  },
  { name: 'cors' },
);
