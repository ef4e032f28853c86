// The audit log's actions: plain data, read by the schemas (and so by the browser's types) and by the log itself.

/** What an administrator, the operator or (for `auth.*`) the API itself did: the `action` column of the audit log. */
export const auditActions = [
  'user.verify',
  'user.status_change',
  'user.plan_change',
  'user.edit',
  'user.create',
  'user.password_reset',
  'app.create',
  'app.update',
  'auth.lockout',
  'user.session_end',
  'oidc_client.create',
  'oidc_client.update',
  'oidc_client.rotate_secret',
  'oidc_client.delete',
  'oidc.backchannel_logout',
] as const;
export type AuditAction = (typeof auditActions)[number];
