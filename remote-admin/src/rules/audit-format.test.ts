import type { AuditEntry } from '@portal/shared';
import { auditActionLabel, auditDetails } from './audit-format';

const entry = (action: string, details: Record<string, unknown>): AuditEntry => ({
  id: 1,
  actorId: 1,
  actorEmail: 'admin@portal.test',
  action,
  targetType: 'user',
  targetId: 2,
  targetLabel: 'ana@example.com',
  details,
  createdAt: '2026-11-21T10:00:00.000Z',
});

describe('audit log rows', () => {
  it('names the actions in Spanish', () => {
    expect(auditActionLabel('user.verify')).toBe('Verificó el email');
    expect(auditActionLabel('user.password_reset')).toBe('Restableció la contraseña');
    expect(auditActionLabel('otra.cosa')).toBe('otra.cosa');
  });

  it("reads a member's failures: a wrong password or second-factor code, and from where", () => {
    expect(auditActionLabel('auth.sign_in_failure')).toBe('Inicio de sesión fallido');
    expect(auditActionLabel('auth.second_factor_failure')).toBe('Código del segundo factor incorrecto');
    expect(auditActionLabel('auth.sign_in_refused')).toBe('Inicio de sesión rechazado por las reglas de la empresa');
    expect(auditActionLabel('company.scim_token_refused')).toBe('Intento con un token SCIM revocado');
    expect(auditDetails(entry('auth.sign_in_failure', { address: '203.0.113.9' }))).toBe(
      'Contraseña incorrecta desde 203.0.113.9',
    );
    expect(auditDetails(entry('auth.second_factor_failure', { address: '203.0.113.9' }))).toBe(
      'Código incorrecto desde 203.0.113.9',
    );
  });

  it("reads a change to a person's roles in an app: who, the keys before and after", () => {
    expect(auditActionLabel('company.app_roles_change')).toBe('Cambió los roles en una aplicación');
    expect(auditActionLabel('app.role_delete')).toBe('Eliminó un rol de la aplicación');
    expect(
      auditDetails(
        entry('company.app_roles_change', {
          userId: 2,
          email: 'ana@example.com',
          appId: 1,
          antes: [],
          despues: ['operador', 'supervisor'],
          fuenteRoles: 'mano',
        }),
      ),
    ).toBe('ana@example.com: sin roles → operador, supervisor');
    // With the roles' names the entry kept, and why they went.
    const taken = { userId: 2, email: 'ana@example.com', appId: 1, antes: ['operador'], despues: [] };
    const names = { nombres: { operador: 'Operador de planta' } };
    for (const [why, text] of [
      [{ fuenteRoles: 'puesto', motivo: 'puesto_retirado' }, 'al quitarle el puesto'],
      [{ fuenteRoles: 'puesto', motivo: 'baja_directorio' }, 'al darle de baja el directorio'],
      [{ fuenteRoles: 'puesto' }, 'al quitarle el puesto'],
      [{ fuenteRoles: 'plan' }, 'al terminar su plan propio'],
      [{ fuenteRoles: 'eliminacion' }, 'porque se borró el rol de la aplicación'],
    ] as const)
      expect(auditDetails(entry('user.app_roles_change', { ...taken, ...names, ...why }))).toBe(
        `ana@example.com: Operador de planta → sin roles · ${text}`,
      );
    expect(
      auditDetails(
        entry('company.app_roles_change', { ...taken, antes: [], despues: ['operador'], fuenteRoles: 'grupo' }),
      ),
    ).toBe('ana@example.com: sin roles → operador · por un grupo del directorio');
    expect(auditDetails(entry('app.role_create', { clave: 'supervisor' }))).toBe('supervisor');
  });

  it("names the OpenID Connect clients' changes and the apps told of a logout", () => {
    expect(auditActionLabel('oidc_client.rotate_secret')).toBe('Rotó el secreto de un cliente OpenID Connect');
    expect(auditDetails(entry('oidc_client.create', { clientId: 'abc', nombre: 'Panel de planta' }))).toBe(
      'Panel de planta',
    );
    expect(
      auditDetails(entry('oidc_client.update', { clientId: 'abc', nombre: 'Panel', fields: ['redirectUris'] })),
    ).toBe('Panel · Campos: redirectUris');
    expect(
      auditDetails(
        entry('oidc.backchannel_logout', {
          cliente: 'Beto Pro',
          motivo: 'account_suspended',
          resultado: 'entregado',
          intentos: 1,
        }),
      ),
    ).toBe('Beto Pro: cuenta suspendida; entregado (1 intento)');
    expect(
      auditDetails(
        entry('oidc.backchannel_logout', { cliente: 'Beto Pro', motivo: 'logout', resultado: 'fallido', intentos: 9 }),
      ),
    ).toBe('Beto Pro: cerró sesión en el portal; no se pudo entregar (9 intentos)');
  });

  it('summarizes the details', () => {
    expect(auditDetails(entry('user.status_change', { from: 'active', to: 'suspended' }))).toBe('Activo → Suspendido');
    expect(
      auditDetails(
        entry('user.plan_change', {
          appId: 1,
          app: 'Control Max 360',
          fromPlanId: null,
          fromPlan: null,
          toPlanId: 2,
          toPlan: 'PRO',
          toFechaVencimiento: '2027-03-15T00:00:00.000Z',
        }),
      ),
    ).toBe('Control Max 360: sin plan → PRO, vence 15/3/2027');
    // Plans read as on every other screen ('Gratis'); a free plan never expires, so no date is said for it.
    expect(
      auditDetails(
        entry('user.plan_change', {
          appId: 2,
          app: 'Beto Pro',
          fromPlanId: 3,
          fromPlan: 'free',
          toPlanId: 4,
          toPlan: 'PRO',
          toFechaVencimiento: '2030-06-30T00:00:00.000Z',
        }),
      ),
    ).toBe('Beto Pro: Gratis → PRO, vence 30/6/2030');
    expect(
      auditDetails(
        entry('user.plan_change', {
          appId: 2,
          app: 'Beto Pro',
          fromPlanId: 4,
          fromPlan: 'pro',
          toPlanId: 3,
          toPlan: 'Free',
          toFechaVencimiento: '2027-11-21T00:00:00.000Z',
        }),
      ),
    ).toBe('Beto Pro: PRO → Gratis');
    expect(auditDetails(entry('app.update', { fields: ['nombre', 'webUrl'] }))).toBe('Campos: nombre, webUrl');
    expect(
      auditDetails(entry('auth.lockout', { scope: 'address', address: '203.0.113.9', failures: 5, lockedSeconds: 30 })),
    ).toBe('5 contraseñas incorrectas desde 203.0.113.9; espera de 30 s');
    expect(
      auditDetails(
        entry('auth.lockout', { scope: 'account', address: '203.0.113.40', failures: 20, lockedSeconds: 30 }),
      ),
    ).toBe('20 contraseñas incorrectas en total (la última desde 203.0.113.40); espera de 30 s');
    // The operator's command (npm run admin) records these two.
    expect(auditDetails(entry('user.create', { role: 1 }))).toBe('Rol: Administrador');
    expect(auditDetails(entry('user.password_reset', { method: 'correo' }))).toBe('Código enviado por email');
    expect(auditDetails(entry('user.password_reset', { method: 'temporal' }))).toBe('Contraseña temporal');
    // 'Editar' of the users table: each changed field with its new value.
    expect(auditDetails(entry('user.edit', { name: 'Marisol', phone: '', role: 1, status: 'suspended' }))).toBe(
      'Nombre: Marisol · Teléfono: vacío · Rol: Administrador · Estado: Suspendido',
    );
  });
});
