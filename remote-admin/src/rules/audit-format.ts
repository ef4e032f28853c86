import { type AuditAction, type AuditEntry, isFreePlan, planLabel } from '@portal/shared';
import { formatExpiryDate, roleLabel } from './format';
import { statusLabel } from './status';
import { AUDIT_ACTION_LABELS, AUDIT_DETAIL_TEXT as T } from './texts';

/** What an audit row reads as: the action in Spanish. */
export function auditActionLabel(action: string): string {
  return Object.hasOwn(AUDIT_ACTION_LABELS, action) ? AUDIT_ACTION_LABELS[action as AuditAction] : action;
}

/**
 * A change to a person's roles in an app: who, the roles before and after by the names the entry kept (the keys of
 * an entry written before it kept them), and why they changed when it was not by hand.
 */
export function rolesChange(d: Record<string, unknown>): string {
  const names = (d.nombres ?? {}) as Record<string, unknown>;
  const roles = (value: unknown) =>
    Array.isArray(value) && value.length > 0
      ? value.map((key) => (typeof names[key] === 'string' ? names[key] : String(key))).join(', ')
      : T.noRoles;
  const who = typeof d.email === 'string' ? d.email : T.app(String(d.appId));
  const change = T.rolesChange(who, roles(d.antes), roles(d.despues));
  const why = T.rolesWhy[String(d.motivo)] ?? T.rolesWhy[String(d.fuenteRoles)];
  return why ? `${change} · ${why}` : change;
}

/** The details of an audit row in one readable line. */
export function auditDetails(entry: AuditEntry): string {
  const d = entry.details;
  switch (entry.action) {
    case 'user.verify':
    case 'user.status_change':
      return `${statusLabel(d.from as string)} → ${statusLabel(d.to as string)}`;
    case 'user.plan_change': {
      // Plans read as on every other screen ('Gratis', 'PRO'); a free plan never expires, so its date is not said.
      const from = typeof d.fromPlan === 'string' ? planLabel({ nombre: d.fromPlan }) : T.noPlan;
      const to = typeof d.toPlan === 'string' ? { nombre: d.toPlan } : null;
      const app = String(d.app ?? T.app(String(d.appId)));
      const change = T.planChange(app, from, to ? planLabel(to) : String(d.toPlanId));
      return to && isFreePlan(to) ? change : T.expiring(change, formatExpiryDate(d.toFechaVencimiento as string));
    }
    case 'user.edit':
      return editedFields(d);
    case 'user.create':
      return typeof d.role === 'number' ? `${T.role}: ${roleLabel(d.role)}` : '';
    case 'user.password_reset':
      return d.method === 'correo' ? T.codeByEmail : T.temporaryPassword;
    case 'app.create':
      return String(d.nombre ?? '');
    case 'app.role_create':
    case 'app.role_update':
    case 'app.role_delete':
      return String(d.clave ?? '');
    case 'user.app_roles_change':
    case 'company.app_roles_change':
      return rolesChange(d);
    case 'app.update':
      return Array.isArray(d.fields) && d.fields.length > 0 ? `${T.fields}: ${d.fields.join(', ')}` : T.noChanges;
    case 'auth.lockout': {
      const where = d.scope === 'account' ? T.lockoutAccount(String(d.address)) : T.lockoutAddress(String(d.address));
      return T.lockout(String(d.failures), where, String(d.lockedSeconds));
    }
    case 'auth.sign_in_failure':
      return T.wrongPassword(String(d.address));
    case 'auth.second_factor_failure':
      return T.wrongCode(String(d.address));
    case 'user.session_end':
      return T.sessionEnd(String(d.browser), String(d.os), String(d.device), String(d.address));
    case 'oidc_client.create':
    case 'oidc_client.rotate_secret':
    case 'oidc_client.delete':
      return String(d.nombre ?? '');
    case 'oidc_client.update':
      return Array.isArray(d.fields) && d.fields.length > 0
        ? `${String(d.nombre ?? '')} · ${T.fields}: ${d.fields.join(', ')}`
        : T.noChanges;
    case 'oidc_client.subscription_create':
    case 'oidc_client.subscription_delete':
    case 'oidc_client.subscription_rotate_secret':
    case 'saml_app.subscription_create':
    case 'saml_app.subscription_delete':
    case 'saml_app.subscription_rotate_secret':
      return String(d.url ?? '');
    case 'oidc_client.subscription_disabled':
    case 'saml_app.subscription_disabled':
      return T.subscriptionDisabled(String(d.url), String(d.motivo ?? ''));
    case 'oidc_client.delivery_resend':
    case 'saml_app.delivery_resend':
      return T.deliveryResend(String(d.evento), String(d.seq), String(d.url));
    case 'oidc.backchannel_logout':
      return T.logoutOutcome(
        String(d.cliente ?? d.clientId),
        T.logoutReasons[String(d.motivo)] ?? String(d.motivo),
        d.resultado === 'entregado',
        String(d.intentos ?? 1),
      );
    default:
      return JSON.stringify(d);
  }
}

/** A user edit: each changed field with its new value ('Nombre: Ana · Rol: Administrador'). */
function editedFields(d: Record<string, unknown>): string {
  const parts = Object.entries(d).map(([field, value]) => {
    if (field === 'role' && typeof value === 'number') return `${T.role}: ${roleLabel(value)}`;
    if (field === 'status') return `${T.status}: ${statusLabel(value as string)}`;
    const shown = value === '' || value === null ? T.empty : String(value);
    return `${T.editedFields[field] ?? field}: ${shown}`;
  });
  return parts.length > 0 ? parts.join(' · ') : T.noChanges;
}
