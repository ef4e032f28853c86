import { hkdfSync } from 'node:crypto';
import fp from 'fastify-plugin';
import { type CodeService, createCodeService } from '../../domain/account-codes/codes.js';

declare module 'fastify' {
  interface FastifyInstance {
    codes: CodeService;
  }
}

export default fp(
  async (app) => {
    // Derived from the signing key, which is already the server's secret: no second secret to configure and keep.
    const keyMaterial = app.signingKey.privateKey.export({ type: 'pkcs8', format: 'der' });
    const hmacKey = Buffer.from(hkdfSync('sha256', keyMaterial, Buffer.alloc(0), 'portal account codes', 32));
    app.decorate('codes', createCodeService(app.db, hmacKey, app.clock, app.metrics));
  },
  { name: 'codes', dependencies: ['tokens', 'counters', 'metrics'] },
);
