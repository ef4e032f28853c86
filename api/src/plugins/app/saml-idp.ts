import fp from 'fastify-plugin';
import { keysDirOf } from '../../domain/tokens/keys.js';
import { loadSamlIdpKey, type SamlIdpKey } from '../../domain/tokens/saml-key.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The portal as a SAML identity provider (docs/decisions/0100-saml-identity-provider.md): its key. */
    samlIdp: { key: SamlIdpKey };
  }
}

export interface SamlIdpPluginOptions {
  /** A key already loaded (tests reuse one); otherwise it comes from the configuration or `DATA_DIR/keys`. */
  key?: SamlIdpKey;
}

export default fp<SamlIdpPluginOptions>(
  async (app, options) => {
    const key =
      options.key ??
      (await loadSamlIdpKey({
        privateKeyPem: app.config.samlIdp.privateKey,
        certificatePem: app.config.samlIdp.certificate,
        previousCertificatePem: app.config.samlIdp.previousCertificate,
        keysDir: keysDirOf(app.config.dataDir),
      }));
    app.decorate('samlIdp', { key });
  },
  { name: 'saml-idp', dependencies: ['database'] },
);
