import { TEXT_ACCESS } from '@portal/shared';

/**
 * The words more than one room of the admin panel shows: the shared components, the layout and the pages. What one
 * page alone shows lives in its folder's texts.ts; the layout's in layout/texts.ts, what the rules put together in
 * rules/texts.ts, the calls' fallbacks in api/texts.ts (docs/decisions/0096-texts-beside-their-pages.md).
 */
export const TEXT_ADMIN = {
  // The menu's entry, and the apps page's list heading (spec §2).
  apps: 'Aplicaciones',
  // The dashboard's card and the users page's count.
  totalUsers: 'Total de usuarios',

  // Buttons and fields of the forms and dialogs.
  edit: 'Editar',
  name: 'Nombre',
  save: 'Guardar',
  saving: 'Guardando...',
  cancel: 'Cancelar',
  close: 'Cerrar',

  // 'Copiar' beside a value to hand to another system, and what it says once done or when it cannot (the shared
  // forms' words).
  copy: TEXT_ACCESS.copy,
  copied: TEXT_ACCESS.copied,
  copyFailed: TEXT_ACCESS.copyFailed,

  // A table's pages, and the button under a list read a cursor page at a time.
  previous: 'Anterior',
  next: 'Siguiente',
  pagination: 'Paginación',
  pageNumber: (page: number) => `Página ${page}`,
  loadMore: 'Cargar más',

  // The columns of an audit log: the dashboard's, and a company's activity.
  auditWhen: 'Fecha',
  auditWhat: 'Acción',
  auditWhom: 'Sobre',
  auditDetails: 'Detalles',
} as const;

/** Spec §9: success and failure alerts of the admin screens disappear after 5000 ms. */
export const ADMIN_ALERT_MS = 5000;
