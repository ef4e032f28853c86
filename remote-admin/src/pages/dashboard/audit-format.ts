import type { AuditEntry } from '@portal/shared';
import { formatExpiryDate, roleLabel } from '../../model/format';
import { statusLabel } from '../../model/status';
import { AUDIT_ACTION_LABELS } from '../../texts';

/** What an audit row reads as: the action in Spanish. */
export function auditActionLabel(action: string): string {
  return AUDIT_ACTION_LABELS[action] ?? action;
}

/** The details of an audit row in one readable line. */
export function auditDetails(entry: AuditEntry): string {
  const d = entry.details;
  switch (entry.action) {
    case 'user.verify':
    case 'user.status_change':
      return `${statusLabel(d.from as string)} → ${statusLabel(d.to as string)}`;
    case 'user.plan_change': {
      const from = typeof d.fromPlan === 'string' ? d.fromPlan : 'sin plan';
      return `${String(d.app ?? `App ${String(d.appId)}`)}: ${from} → ${String(d.toPlan ?? d.toPlanId)}, vence ${formatExpiryDate(d.toFechaVencimiento as string)}`;
    }
    case 'user.edit':
      return editedFields(d);
    case 'user.create':
      return typeof d.role === 'number' ? `Rol: ${roleLabel(d.role)}` : '';
    case 'user.password_reset':
      return d.method === 'correo' ? 'Código enviado por email' : 'Contraseña temporal';
    case 'app.create':
      return String(d.nombre ?? '');
    case 'app.update':
      return Array.isArray(d.fields) && d.fields.length > 0 ? `Campos: ${d.fields.join(', ')}` : 'Sin cambios';
    case 'auth.lockout': {
      const where =
        d.scope === 'account' ? `en total (la última desde ${String(d.address)})` : `desde ${String(d.address)}`;
      return `${String(d.failures)} contraseñas incorrectas ${where}; espera de ${String(d.lockedSeconds)} s`;
    }
    case 'user.session_end':
      return `${String(d.browser)} en ${String(d.os)} (${String(d.device)}), desde ${String(d.address)}`;
    default:
      return JSON.stringify(d);
  }
}

const EDITED_FIELD_LABELS: Record<string, string> = {
  name: 'Nombre',
  lastName: 'Apellido',
  phone: 'Teléfono',
  picture: 'Foto',
};

/** A user edit: each changed field with its new value ('Nombre: Ana · Rol: Administrador'). */
function editedFields(d: Record<string, unknown>): string {
  const parts = Object.entries(d).map(([field, value]) => {
    if (field === 'role' && typeof value === 'number') return `Rol: ${roleLabel(value)}`;
    if (field === 'status') return `Estado: ${statusLabel(value as string)}`;
    const shown = value === '' || value === null ? 'vacío' : String(value);
    return `${EDITED_FIELD_LABELS[field] ?? field}: ${shown}`;
  });
  return parts.length > 0 ? parts.join(' · ') : 'Sin cambios';
}
