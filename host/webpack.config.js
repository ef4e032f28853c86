const path = require('node:path');
const { federatedConfig } = require('../scripts/webpack/federation');

// The shell: it exposes nothing and learns its remotes at run time from runtime-config.js.
// Its route table also tells the static server which remote modules to preload for each page (preload.json).
module.exports = federatedConfig({
  dir: __dirname,
  name: 'host',
  port: 8080,
  title: 'Portal de Aplicaciones',
  routeTable: path.join(__dirname, 'src/routes/route-table.ts'),
});
