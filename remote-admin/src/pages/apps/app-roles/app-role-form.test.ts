import { newRoleInput, renameInput, validateNewRole, validateRoleName } from './app-role-form';

describe("an app role's form", () => {
  it('asks for a key the apps can read and a name before sending', () => {
    expect(validateNewRole({ clave: '', nombre: 'Supervisor', descripcion: '' })).toBe('Escribe la clave del rol');
    expect(validateNewRole({ clave: 'Jefe de turno', nombre: 'Jefe', descripcion: '' })).toBe(
      'La clave solo puede tener letras minúsculas, dígitos, - y _ (hasta 40)',
    );
    expect(validateNewRole({ clave: 'jefe_turno', nombre: '  ', descripcion: '' })).toBe('Escribe el nombre del rol');
    expect(validateNewRole({ clave: ' jefe_turno ', nombre: 'Jefe de turno', descripcion: '' })).toBeNull();
    expect(validateRoleName({ clave: 'jefe_turno', nombre: '', descripcion: '' })).toBe('Escribe el nombre del rol');
  });

  it('sends the fields trimmed, a new role without an empty description, a rename with it', () => {
    expect(newRoleInput({ clave: ' jefe_turno ', nombre: ' Jefe de turno ', descripcion: ' ' })).toEqual({
      clave: 'jefe_turno',
      nombre: 'Jefe de turno',
    });
    expect(newRoleInput({ clave: 'jefe', nombre: 'Jefe', descripcion: 'Aprueba turnos' })).toEqual({
      clave: 'jefe',
      nombre: 'Jefe',
      descripcion: 'Aprueba turnos',
    });
    expect(renameInput({ clave: 'jefe', nombre: ' Jefa ', descripcion: '' })).toEqual({
      nombre: 'Jefa',
      descripcion: '',
    });
  });
});
