const { federatedConfig, REMOTES } = require('../scripts/webpack/federation');

module.exports = federatedConfig({
  dir: __dirname,
  name: REMOTES.admin,
  port: 3003,
  exposes: {
    './AdminLayout': './src/layout/AdminLayout.tsx',
    './UsersPage': './src/pages/users/UsersPage.tsx',
    './DashboardPage': './src/pages/dashboard/DashboardPage.tsx',
    './AppsAdminPage': './src/pages/apps/AppsAdminPage.tsx',
  },
  title: 'Panel de administración',
});
