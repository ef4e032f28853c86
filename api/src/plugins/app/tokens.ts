import fp from 'fastify-plugin';
import { createTokenService, type TokenService } from '../../domain/sessions/verify.js';
import { keysDirOf, loadSigningKey, type SigningKey } from '../../domain/tokens/keys.js';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenService;
    /** The server's secret key; the code service derives its own key from it. */
    signingKey: SigningKey;
  }
}

export interface TokensPluginOptions {
  /** Signing key already loaded (tests reuse one); otherwise it comes from the configuration or `DATA_DIR/keys`. */
  signingKey?: SigningKey;
}

export default fp<TokensPluginOptions>(
  async (app, options) => {
    const key =
      options.signingKey ??
      (await loadSigningKey({
        privateKeyPem: app.config.jwtPrivateKey,
        keysDir: keysDirOf(app.config.dataDir),
      }));
    app.decorate('signingKey', key);
    app.decorate(
      'tokens',
      createTokenService(
        app.db,
        key,
        {
          ttlSeconds: app.config.tokenTtlSeconds,
          partnerTtlSeconds: app.config.partnerTokenTtlSeconds,
          issuer: app.config.apiPublicUrl,
        },
        app.sessionState,
      ),
    );
  },
  { name: 'tokens', dependencies: ['session-memory'] },
);
