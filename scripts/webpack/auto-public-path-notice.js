// One notice of a dependency left out of every federated build's log.

/** The name @module-federation/manifest logs under (its PLUGIN_IDENTIFIER). */
const MANIFEST_PLUGIN = 'Module Federation Manifest Plugin';

/**
 * @module-federation/manifest warns on every build whose `output.publicPath` is 'auto' that the manifest's files
 * "will use absolute path resolution via its host at runtime": the host finds them beside the manifest's own address.
 * That is what the portal chose: a part is built once and served from any address (REMOTE_*_URL, a CDN), and the
 * federation runtime supports it (an 'auto' manifest's public path is inferred from where it was fetched). The
 * warning comes from the dependency itself, on every build, and no option of the plugin acknowledges it; this drops
 * that one message where webpack logs it. Every other message of every plugin is printed as before.
 */
class AutoPublicPathNotice {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.infrastructureLog.tap('AutoPublicPathNotice', (origin, type, args) =>
      origin === MANIFEST_PLUGIN &&
      type === 'warn' &&
      (args ?? []).some((arg) => String(arg).includes("publicPath='auto'"))
        ? true
        : undefined,
    );
  }
}

module.exports = { AutoPublicPathNotice };
