const { federatedConfig } = require('../scripts/webpack/federation');

// The shell: it exposes nothing and learns its remotes at run time from runtime-config.js.
module.exports = federatedConfig({ dir: __dirname, name: 'host', port: 8080, title: 'Portal de Aplicaciones' });
