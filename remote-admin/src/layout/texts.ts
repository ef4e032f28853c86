/** The panel's frame: its menu, the avatar's, and the gate for an administrator without a second factor. */
export const TEXT_LAYOUT = {
  // Layout (spec §2 'Admin panel layout').
  users: 'Usuarios',
  // The page keeps the spec's title 'Dashboard de Administración'; its menu entry is Spanish. Not 'Panel': the avatar
  // menu's 'Panel' (spec §2) already names the whole admin area.
  dashboard: 'Resumen',
  adminFallbackName: 'Admin',
  adminLabel: 'Administrador',
  goHome: 'Ir al inicio',
  logout: 'Cerrar Sesión',
  openMenu: 'Abrir menú',
  closeMenu: 'Cerrar menú',
  panelNav: 'Panel de administración',

  // The panel's gate for an administrator without a second factor in this session.
  setupSecondFactorTitle: 'Configura tu segundo factor',
  setupSecondFactorDetail:
    'Para usar el panel de administración necesitas una aplicación de autenticación o una llave de acceso.',
  setupSecondFactorAction: 'Configurar ahora',
  confirmIdentityTitle: 'Confirma tu identidad',
  confirmIdentityDetail:
    'Cierra sesión y vuelve a iniciarla con tu segundo factor para usar el panel de administración.',
  confirmIdentityAction: 'Cerrar sesión',
  securityErrorTitle: 'No se pudo abrir el panel de administración',

  // The company screens' entries (docs/decisions/0078-company-screens.md).
  navCompanies: 'Empresas',
  navCompany: 'Empresa',
  companyManagerLabel: 'Administración de empresa',
} as const;
