const { federatedConfig, REMOTES } = require('../scripts/webpack/federation');

module.exports = federatedConfig({
  dir: __dirname,
  name: REMOTES.apps,
  port: 3002,
  exposes: {
    './AppsPage': './src/pages/apps/AppsPage.tsx',
    './AppUpgradePage': './src/pages/upgrade/AppUpgradePage.tsx',
    './PaymentsPage': './src/pages/payments/PaymentsPage.tsx',
    './SuccessPage': './src/pages/success/SuccessPage.tsx',
    './PlansPage': './src/pages/plans/PlansPage.tsx',
    './BetoPage': './src/pages/marketing/BetoPage.tsx',
    './ControlMaxPage': './src/pages/marketing/ControlMaxPage.tsx',
  },
  title: 'Aplicaciones',
});
