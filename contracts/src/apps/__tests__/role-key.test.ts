import { isRoleKey } from '../role-key';

describe('isRoleKey', () => {
  it('takes lower-case letters, digits, - and _, up to 40', () => {
    expect(isRoleKey('supervisor')).toBe(true);
    expect(isRoleKey('jefe_de-turno2')).toBe(true);
    expect(isRoleKey('a'.repeat(40))).toBe(true);
  });

  it('refuses nothing, capitals, spaces, accents and more than 40', () => {
    expect(isRoleKey('')).toBe(false);
    expect(isRoleKey('Supervisor')).toBe(false);
    expect(isRoleKey('jefe de turno')).toBe(false);
    expect(isRoleKey('técnico')).toBe(false);
    expect(isRoleKey('a'.repeat(41))).toBe(false);
  });
});
