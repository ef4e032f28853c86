/** The dashboard (spec §2 'Admin dashboard') and its audit log. */
export const TEXT_DASHBOARD = {
  dashboardTitle: 'Dashboard de Administración',
  activeApps: 'Apps activas',
  activeSubscriptions: 'Suscripciones activas',
  newSubscriptions: 'Nuevas suscripciones',
  newUsersPerDay: 'Nuevos usuarios por día',
  monthlyRevenue: 'Ingresos mensuales (USD)',
  revenueCounts:
    'Cobros de suscripciones pagadas en la facturación. Los planes asignados por un administrador no cuentan.',
  revenueNoBilling:
    'La facturación no está configurada: no hay cobros que contar. Los planes asignados por un administrador no son ingresos.',
  planDistribution: 'Distribución de planes',
  quickActions: 'Acciones rápidas',
  manageUsers: 'Gestionar usuarios',
  configureApps: 'Configurar apps',
  viewReports: 'Ver reportes',
  loadingDashboard: 'Cargando...',
  usersCount: (n: number) => `${n} ${n === 1 ? 'usuario' : 'usuarios'}`,

  // The audit log.
  auditLog: 'Registro de auditoría',
  auditEmpty: 'Aún no hay acciones registradas',
  auditWho: 'Administrador',
} as const;
