import fp from 'fastify-plugin';
import { createPasswordService, type PasswordService } from '../../domain/accounts/passwords.js';

declare module 'fastify' {
  interface FastifyInstance {
    passwords: PasswordService;
  }
}

export default fp(
  async (app) => {
    app.decorate('passwords', await createPasswordService());
  },
  { name: 'passwords' },
);
