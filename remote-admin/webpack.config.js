// The admin remote: its name, pages and title are in the portal's manifest (shared/src/portal/manifest.ts).
const { remoteConfig } = require('../scripts/webpack/federation');

module.exports = remoteConfig('admin', __dirname);
