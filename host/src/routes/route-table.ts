import type { RemotePage } from '@portal/shared/manifest';

/**
 * Who may see a route (spec §2):
 * - `guest`: only signed-out people; a signed-in one goes to /apps or to the allowed redirect_url with the token,
 *   except on a sign-in an app asked to be fresh (`?interaccion=…&reautenticar=1`), whose form shows to anyone.
 * - `public`: anyone.
 * - `user`: a signed-in person (a `token` query parameter is no session: the OAuth return is the callback page's
 *   one-time code, docs/decisions/0001); an allowed `redirect_url` hands them to that partner, any other goes to /apps.
 * - `admin`: a signed-in administrator; others see 'Acceso Denegado', signed-out people go to /login.
 * - `company`: as `admin`, and also an owner or administrator of the company in the address (`:id`; of any company
 *   where there is none), from the user's `empresas`.
 */
export type Guard = 'guest' | 'public' | 'user' | 'admin' | 'company';

/** Where the page sits: bare (sign-in screens), under the top bar, or inside the admin panel layout. */
export type Layout = 'bare' | 'topbar' | 'admin';

/**
 * A route: its guard, its layout, and the page that renders it (`remote` and `module`, one of the modules that remote
 * exposes in the portal's manifest, shared/src/portal/manifest.ts: naming another fails the type check).
 */
export type PortalRoute = RemotePage & {
  path: string;
  guard: Guard;
  layout: Layout;
  /** The browser tab's title: '{title} · Portal'. */
  title: string;
};

/** The browser tab's title of a page. */
export function tabTitle(title: string): string {
  return `${title} · Portal`;
}

/** The URL table of the portal: every route, its guard and the remote module that renders it. */
export const ROUTES: readonly PortalRoute[] = [
  // Authentication routes: automatic redirects to partner apps are suppressed on them.
  { path: '/login', guard: 'guest', layout: 'bare', remote: 'auth', module: './LoginPage', title: 'Iniciar sesión' },
  {
    path: '/register',
    guard: 'guest',
    layout: 'bare',
    remote: 'auth',
    module: './RegisterPage',
    title: 'Crear cuenta',
  },
  {
    path: '/verify-email',
    guard: 'public',
    layout: 'bare',
    remote: 'auth',
    module: './VerifyEmailPage',
    title: 'Verifica tu email',
  },
  {
    path: '/forgot-password',
    guard: 'public',
    layout: 'bare',
    remote: 'auth',
    module: './ForgotPasswordPage',
    title: 'Recuperar contraseña',
  },
  {
    path: '/reset-password',
    guard: 'public',
    layout: 'bare',
    remote: 'auth',
    module: './ResetPasswordPage',
    title: 'Restablecer contraseña',
  },
  {
    path: '/google-callback',
    guard: 'public',
    layout: 'bare',
    remote: 'auth',
    module: './GoogleCallbackPage',
    title: 'Iniciando sesión',
  },
  {
    path: '/auth/google/callback',
    guard: 'public',
    layout: 'bare',
    remote: 'auth',
    module: './GoogleCallbackPage',
    title: 'Iniciando sesión',
  },
  { path: '/logout', guard: 'public', layout: 'bare', remote: 'auth', module: './LogoutPage', title: 'Cerrar sesión' },
  // An app's sign-in with the portal (OpenID Connect): public, since the page itself sends a signed-out person to
  // /login and brings them back (docs/decisions/0056-openid-connect-screens.md).
  {
    path: '/autorizar',
    guard: 'public',
    layout: 'bare',
    remote: 'auth',
    module: './AuthorizePage',
    title: 'Acceso a una aplicación',
  },
  {
    path: '/autorizar/error',
    guard: 'public',
    layout: 'bare',
    remote: 'auth',
    module: './AuthorizeErrorPage',
    title: 'No se pudo iniciar sesión',
  },
  // A partner app's SAML sign-in (docs/decisions/0100-saml-identity-provider.md): signed-in only, so the guard keeps
  // the page and brings the person back after /login; the module is /autorizar's, which answers both protocols.
  {
    path: '/saml/continuar',
    guard: 'user',
    layout: 'bare',
    remote: 'auth',
    module: './AuthorizePage',
    title: 'Acceso a una aplicación',
  },
  // Sign-in on a device (RFC 8628): public, since the page itself sends a signed-out person to /login and brings
  // them back with the code (docs/decisions/0086-device-sign-in.md).
  {
    path: '/dispositivo',
    guard: 'public',
    layout: 'bare',
    remote: 'auth',
    module: './DevicePage',
    title: 'Iniciar sesión en un dispositivo',
  },
  // A company invitation's link: public, since the page itself tells a signed-out person, the invited account and any
  // other account apart (docs/decisions/0079-what-a-member-sees.md).
  {
    path: '/invitacion',
    guard: 'public',
    layout: 'bare',
    remote: 'auth',
    module: './InvitationPage',
    title: 'Invitación',
  },
  // A company's setup link (docs/decisions/0105-company-setup-link.md): no account, the secret in the fragment; the
  // page takes it off the address bar and sends it as a bearer token only.
  {
    path: '/configurar-empresa',
    guard: 'public',
    layout: 'bare',
    remote: 'auth',
    module: './CompanySetupPage',
    title: 'Configurar la empresa',
  },
  {
    path: '/playstoreapps/beto/datos-personales',
    guard: 'public',
    layout: 'bare',
    remote: 'auth',
    module: './PersonalDataPage',
    title: 'Eliminación de datos personales',
  },

  // User area, under the top bar.
  { path: '/', guard: 'user', layout: 'topbar', remote: 'apps', module: './AppsPage', title: 'Aplicaciones' },
  { path: '/apps', guard: 'user', layout: 'topbar', remote: 'apps', module: './AppsPage', title: 'Aplicaciones' },
  {
    path: '/apps/:id',
    guard: 'user',
    layout: 'topbar',
    remote: 'apps',
    module: './AppUpgradePage',
    title: 'Mejorar plan',
  },
  { path: '/pagos', guard: 'user', layout: 'topbar', remote: 'apps', module: './PaymentsPage', title: 'Pagos' },
  {
    path: '/success',
    guard: 'user',
    layout: 'topbar',
    remote: 'apps',
    module: './SuccessPage',
    title: 'Pago completado',
  },
  { path: '/planes', guard: 'user', layout: 'topbar', remote: 'apps', module: './PlansPage', title: 'Planes' },
  { path: '/beto', guard: 'user', layout: 'topbar', remote: 'apps', module: './BetoPage', title: 'Beto Pro' },
  {
    path: '/control-max',
    guard: 'user',
    layout: 'topbar',
    remote: 'apps',
    module: './ControlMaxPage',
    title: 'Control Max 360',
  },
  { path: '/perfil', guard: 'user', layout: 'topbar', remote: 'auth', module: './ProfilePage', title: 'Mi perfil' },
  {
    path: '/calculadora-txi',
    guard: 'user',
    layout: 'topbar',
    remote: 'calculator',
    module: './CalculatorPage',
    title: 'Calculadora TXI',
  },

  // Admin area, inside the admin panel layout that remote-admin exposes.
  {
    path: '/admin',
    guard: 'admin',
    layout: 'admin',
    remote: 'admin',
    module: './UsersPage',
    title: 'Gestión de usuarios',
  },
  {
    path: '/admin/usuarios',
    guard: 'admin',
    layout: 'admin',
    remote: 'admin',
    module: './UsersPage',
    title: 'Gestión de usuarios',
  },
  {
    path: '/admin/dashboard',
    guard: 'admin',
    layout: 'admin',
    remote: 'admin',
    module: './DashboardPage',
    title: 'Dashboard de administración',
  },
  {
    path: '/admin/apps',
    guard: 'admin',
    layout: 'admin',
    remote: 'admin',
    module: './AppsAdminPage',
    title: 'Aplicaciones del portal',
  },
  {
    path: '/admin/empresas',
    guard: 'company',
    layout: 'admin',
    remote: 'admin',
    module: './CompaniesPage',
    title: 'Empresas',
  },
  {
    path: '/admin/empresas/:id',
    guard: 'company',
    layout: 'admin',
    remote: 'admin',
    module: './CompanyPage',
    title: 'Empresa',
  },
];

/** The admin panel's frame (side panel, toggle) comes from remote-admin and wraps every admin route. */
export const ADMIN_LAYOUT = { remote: 'admin', module: './AdminLayout' } as const satisfies RemotePage;
