import * as phoneRules from './phone';
import { afterEmailCheck, recheckShown, validateRegistrationDetails } from './registration';
import { hasErrors } from './forms';

const details = {
  email: 'ana@example.com',
  name: 'Ana',
  lastName: 'Pérez',
  phone: { country: 'PE' as const, number: '912 345 678' },
};

describe('registration step 1', () => {
  it('accepts complete details with a Peruvian mobile', () => {
    expect(hasErrors(validateRegistrationDetails(details, phoneRules))).toBe(false);
  });

  it.each([
    [{ name: '  ' }, 'name', 'El nombre es requerido'],
    [{ lastName: '' }, 'lastName', 'El apellido es requerido'],
    [{ phone: { country: 'PE' as const, number: '' } }, 'phone', 'El teléfono es requerido'],
    [{ phone: { country: 'PE' as const, number: '1234567' } }, 'phone', 'El teléfono debe tener al menos 10 dígitos'],
    [
      { phone: { country: 'PE' as const, number: '812345678' } },
      'phone',
      'El teléfono no es válido para el país elegido',
    ],
    [{ email: '' }, 'email', 'El email es requerido'],
    [{ email: 'ana@' }, 'email', 'El email no es válido'],
    [{ email: 'ana example@x.com' }, 'email', 'El email no es válido'],
  ])('%o gives %s: %s', (change, field, message) => {
    expect(validateRegistrationDetails({ ...details, ...change }, phoneRules)).toMatchObject({ [field]: message });
  });
});

describe('registration transitions', () => {
  it('rechecks only the fields that show an error, so a corrected one clears and a silent one stays silent', () => {
    const shown = { email: 'El email no es válido', name: 'El nombre es requerido' };
    const fresh = { email: undefined, name: 'El nombre es requerido', lastName: 'El apellido es requerido' };
    expect(recheckShown(shown, fresh)).toEqual({ email: undefined, name: 'El nombre es requerido' });
  });

  it.each([
    [null, false, 'password'],
    [{ status: 'pending_verification' }, false, 'password'],
    [{ status: 'pending_verification' }, true, 'verification'],
    [{ status: 'suspended' }, false, 'verification'],
    [{ status: 'active' }, true, 'login'],
  ] as const)('an email known as %o (registered here: %s) leads to %s', (existing, here, where) => {
    expect(afterEmailCheck(existing, here)).toBe(where);
  });
});
