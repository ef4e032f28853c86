import fp from 'fastify-plugin';
import { openWakeChannel } from '../../db/wake-channel.js';
import { fillRedirectLogoutAddresses } from '../../domain/identity-provider/saml/apps.js';
import { createSamlLogouts, type SamlLogouts } from '../../domain/identity-provider/saml/logouts.js';
import { keysDirOf } from '../../domain/tokens/keys.js';
import { loadSamlIdpKey, type SamlIdpKey } from '../../domain/tokens/saml-key.js';
import { outboundFetch } from '../../lib/outbound/special-use.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The portal as a SAML identity provider (docs/decisions/0100-saml-identity-provider.md): its key and logouts. */
    samlIdp: { key: SamlIdpKey; logouts: SamlLogouts };
  }
}

export interface SamlIdpPluginOptions {
  /** A key already loaded (tests reuse one); otherwise it comes from the configuration or `DATA_DIR/keys`. */
  key?: SamlIdpKey;
}

/** Trigger `sessions_saml_end` notifies it when it queues single logouts. */
const logoutChannel = 'portal_saml_logout';

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
    const logouts = createSamlLogouts({
      db: app.db,
      key,
      apiPublicUrl: app.config.apiPublicUrl,
      // The operator's one switch for logouts to apps on a private network, as the OpenID Connect back-channel's.
      fetch: outboundFetch(app.config.oidcBackchannelPrivateNetwork),
      log: app.log,
      databaseLost: (error) => app.databaseOutage.lost(error),
    });
    const listener = app.worksQueues
      ? openWakeChannel(app.database, logoutChannel, () => logouts.wake(), app.log, 'SAML single logouts')
      : undefined;
    await listener?.ready;
    app.addHook('onReady', async () => {
      const filled = await fillRedirectLogoutAddresses(app.db, app.config.apiPublicUrl.startsWith('http:'));
      if (filled > 0) app.log.info({ filled }, 'SAML apps: HTTP-Redirect logout addresses read from their metadata');
      if (app.worksQueues) logouts.start();
    });
    app.addHook('onClose', async () => {
      await listener?.close();
      await logouts.close();
    });
    app.decorate('samlIdp', { key, logouts });
  },
  { name: 'saml-idp', dependencies: ['database'] },
);
