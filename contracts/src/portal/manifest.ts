/**
 * The portal's parts, written once: each remote's key, federation name, folder, default port, tab title and the
 * pages it exposes (module name → source file in the remote's folder), the shell's folder and port, and the API's
 * default port. Everything else derives from it: every webpack config (name, port, exposes), the host's federation
 * names and its route table (typed: a route can only name a page its remote exposes), each remote's standalone
 * bootstrap (typed: it mounts every page), scripts/lib/parts.mjs (folders and ports) and the API's default CORS
 * origins.
 *
 * Plain data with erasable types only: the scripts and webpack configs load this file directly (Node's type
 * stripping), the browser packages and the API through TypeScript.
 */

interface RemotePart {
  readonly federationName: string;
  readonly folder: string;
  readonly port: number;
  readonly title: string;
  readonly pages: Readonly<Record<`./${string}`, `./src/${string}.tsx`>>;
}

export const REMOTES = {
  auth: {
    federationName: 'remoteAuth',
    folder: 'remote-auth',
    port: 3001,
    title: 'Portal: cuenta',
    pages: {
      './LoginPage': './src/pages/login/LoginPage.tsx',
      './RegisterPage': './src/pages/register/RegisterPage.tsx',
      './VerifyEmailPage': './src/pages/verify-email/VerifyEmailPage.tsx',
      './ForgotPasswordPage': './src/pages/forgot-password/ForgotPasswordPage.tsx',
      './ResetPasswordPage': './src/pages/reset-password/ResetPasswordPage.tsx',
      './GoogleCallbackPage': './src/pages/google-callback/GoogleCallbackPage.tsx',
      './LogoutPage': './src/pages/logout/LogoutPage.tsx',
      './PersonalDataPage': './src/pages/personal-data/PersonalDataPage.tsx',
      './ProfilePage': './src/pages/profile/ProfilePage.tsx',
      './AuthorizePage': './src/pages/authorize/AuthorizePage.tsx',
      './AuthorizeErrorPage': './src/pages/authorize-error/AuthorizeErrorPage.tsx',
      './DevicePage': './src/pages/device/DevicePage.tsx',
      './InvitationPage': './src/pages/invitation/InvitationPage.tsx',
      './CompanySetupPage': './src/pages/company-setup/CompanySetupPage.tsx',
    },
  },
  apps: {
    federationName: 'remoteApps',
    folder: 'remote-apps',
    port: 3002,
    title: 'Aplicaciones',
    pages: {
      './AppsPage': './src/pages/apps/AppsPage.tsx',
      './AppUpgradePage': './src/pages/upgrade/AppUpgradePage.tsx',
      './PaymentsPage': './src/pages/payments/PaymentsPage.tsx',
      './SuccessPage': './src/pages/success/SuccessPage.tsx',
      './PlansPage': './src/pages/plans/PlansPage.tsx',
      './BetoPage': './src/pages/marketing/BetoPage.tsx',
      './ControlMaxPage': './src/pages/marketing/ControlMaxPage.tsx',
    },
  },
  admin: {
    federationName: 'remoteAdmin',
    folder: 'remote-admin',
    port: 3003,
    title: 'Panel de administración',
    pages: {
      './AdminLayout': './src/layout/AdminLayout.tsx',
      './UsersPage': './src/pages/users/UsersPage.tsx',
      './DashboardPage': './src/pages/dashboard/DashboardPage.tsx',
      './AppsAdminPage': './src/pages/apps/AppsAdminPage.tsx',
      './CompaniesPage': './src/pages/companies/CompaniesPage.tsx',
      './CompanyPage': './src/pages/companies/CompanyPage.tsx',
    },
  },
  calculator: {
    federationName: 'remoteCalculator',
    folder: 'remote-calculator',
    port: 3004,
    title: 'Calculadora TXI',
    pages: { './CalculatorPage': './src/pages/calculator/CalculatorPage.tsx' },
  },
} as const satisfies Record<string, RemotePart>;

/** The shell: it exposes nothing and learns where the remotes are at run time (runtime-config.js). */
export const HOST = { folder: 'host', port: 8080, title: 'Portal de Aplicaciones' } as const;

export const API_DEFAULT_PORT = 3000;

/** A remote's key, as in the runtime config's `remotes`. */
export type RemoteName = keyof typeof REMOTES;

/** The module names a remote exposes, e.g. `'./LoginPage'`. */
export type PageOf<R extends RemoteName> = keyof (typeof REMOTES)[R]['pages'];

/** A page of the portal: a remote and one of the modules it exposes (never one it does not). */
export type RemotePage = { [R in RemoteName]: { remote: R; module: PageOf<R> } }[RemoteName];

/** Every remote key, in the manifest's order. */
export const REMOTE_NAMES = Object.keys(REMOTES) as RemoteName[];

/** The origins the shell and the remotes are served from on this machine by default (`npm start`). */
export function defaultLocalOrigins(bind = '127.0.0.1'): string[] {
  return [HOST.port, ...REMOTE_NAMES.map((name) => REMOTES[name].port)].map((port) => `http://${bind}:${port}`);
}
