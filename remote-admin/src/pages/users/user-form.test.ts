import { listedUser } from '../../testing/setup';
import { saveWarning, statusOptions, userChanges, userToForm, validateUserChanges } from './user-form';

const ana = listedUser(7, { name: 'Ana', lastName: 'Pérez', phone: '+51912345678', role: 2, status: 'active' });

describe('the edit form of a user', () => {
  it('sends nothing when nothing changed, and only the fields that did', () => {
    expect(userChanges(ana, userToForm(ana), 1)).toEqual({});
    expect(userChanges(ana, { ...userToForm(ana), name: '  Ana María ', role: 1 }, 1)).toEqual({
      name: 'Ana María',
      role: 1,
    });
  });

  it("never sends the administrator's own role or status", () => {
    const self = listedUser(1, { role: 1 });
    expect(userChanges(self, { ...userToForm(self), role: 2, status: 'suspended', lastName: 'Ruiz' }, 1)).toEqual({
      lastName: 'Ruiz',
    });
  });

  it('offers pending accounts verification only, and never sends an account back to pending', () => {
    expect(statusOptions('pending_verification').map((o) => o.label)).toEqual(['Pendiente Verificación', 'Activo']);
    expect(statusOptions('active').map((o) => o.label)).toEqual(['Activo', 'Suspendido']);
    expect(statusOptions('suspended').map((o) => o.value)).toEqual(['active', 'suspended']);
  });

  it('refuses an empty name or last name and a phone that is short or not international, in Spanish', () => {
    expect(validateUserChanges({ name: '' })).toBe('El nombre es requerido');
    expect(validateUserChanges({ lastName: '' })).toBe('El apellido es requerido');
    expect(validateUserChanges({ phone: '+51 912' })).toBe('El teléfono debe tener al menos 10 dígitos');
    expect(validateUserChanges({ phone: '0051912345678' })).toBe('El teléfono debe empezar por + y el código del país');
    expect(validateUserChanges({ phone: '' })).toBeNull();
    expect(validateUserChanges({ phone: '+51 912 345 678', name: 'Ana' })).toBeNull();
  });

  it('warns that suspending or demoting an administrator closes their sessions', () => {
    const admin = listedUser(3, { role: 1 });
    expect(saveWarning(ana, { status: 'suspended' })).toMatch(/se cerrarán sus sesiones/);
    expect(saveWarning(admin, { role: 2 })).toMatch(/rol de administrador/);
    expect(saveWarning(ana, { role: 1 })).toBeNull();
    expect(saveWarning(ana, { name: 'Ana' })).toBeNull();
  });

  it("warns that activating a pending account by hand drops the password typed at registration, as 'Verificar' does", () => {
    const pending = listedUser(4, { status: 'pending_verification' });
    expect(saveWarning(pending, { status: 'active' })).toBe(
      'La contraseña que se escribió al registrarse no se guarda: nadie comprobó que quien la escribió sea el dueño del correo. Recibirá el correo «Tu cuenta está activa» con el enlace «Elegir mi contraseña». No le digas que entre con la contraseña que registró: que elija una desde ese correo o con «¿Olvidaste tu contraseña?».',
    );
    expect(saveWarning(pending, { name: 'Ana' })).toBeNull();
  });
});
