import {
  FORM_MESSAGES,
  forgotPasswordError,
  hasErrors,
  isCompleteCode,
  passwordResetError,
  passwordUpdateError,
  profileError,
  resendError,
  sanitizeCode,
  validateRegistrationDetails,
  validateRegistrationPassword,
} from '../rules';
import { composePhone, DEFAULT_PHONE_COUNTRY, phoneCountry, PHONE_COUNTRIES } from '../phone-countries';

const details = { email: 'ana@example.com', name: 'Ana', lastName: 'Pérez', phone: '+51 987654321' };

describe('registration step 1', () => {
  it('accepts complete details with a Peruvian mobile (dialling code counted)', () => {
    expect(hasErrors(validateRegistrationDetails(details))).toBe(false);
  });

  it.each([
    [{ name: '  ' }, 'name', 'El nombre es requerido'],
    [{ lastName: '' }, 'lastName', 'El apellido es requerido'],
    [{ phone: '' }, 'phone', 'El teléfono es requerido'],
    [{ phone: '+51 1234567' }, 'phone', 'El teléfono debe tener al menos 10 dígitos'],
    [{ email: '' }, 'email', 'El email es requerido'],
    [{ email: 'ana@' }, 'email', 'El email no es válido'],
    [{ email: 'ana example@x.com' }, 'email', 'El email no es válido'],
  ])('%o gives %s: %s', (change, field, message) => {
    expect(validateRegistrationDetails({ ...details, ...change })).toMatchObject({ [field]: message });
  });
});

describe('registration step 2', () => {
  it.each([
    [
      { password: '', confirmation: '' },
      { password: 'La contraseña es requerida', confirmation: 'Confirma tu contraseña' },
    ],
    [{ password: '12345', confirmation: '12345' }, { password: 'La contraseña debe tener al menos 6 caracteres' }],
    [{ password: '123456', confirmation: '123457' }, { confirmation: 'Las contraseñas no coinciden' }],
  ])('%o gives %o', (input, expected) => {
    expect(validateRegistrationPassword(input)).toMatchObject(expected);
  });

  it('accepts six characters confirmed', () => {
    expect(hasErrors(validateRegistrationPassword({ password: 'abcdef', confirmation: 'abcdef' }))).toBe(false);
  });
});

describe('codes', () => {
  it('keeps digits only, at most six', () => {
    expect(sanitizeCode('12a3-45 678')).toBe('123456');
  });
  it('submits only exactly six digits', () => {
    expect(isCompleteCode('12345')).toBe(false);
    expect(isCompleteCode('123456')).toBe(true);
  });
});

describe('profile and passwords', () => {
  it('needs a name that is not blank', () => {
    expect(profileError('   ')).toBe('El nombre es requerido');
    expect(profileError('Ana')).toBeUndefined();
  });

  it('needs both passwords and a new one of at least 5', () => {
    expect(passwordUpdateError('', 'abcde')).toBe('Por favor completa ambos campos de contraseña.');
    expect(passwordUpdateError('old', 'abcd')).toBe('La nueva contraseña debe tener al menos 5 caracteres.');
    expect(passwordUpdateError('old', 'abcde')).toBeUndefined();
  });

  it('forgot password needs the email', () => {
    expect(forgotPasswordError(' ')).toBe('Por favor ingresa tu email');
    expect(forgotPasswordError('a@b.co')).toBeUndefined();
  });

  it('reset needs every field, 5 characters and a matching confirmation', () => {
    const reset = { email: 'a@b.co', code: '123456', newPassword: 'abcde', confirmation: 'abcde' };
    expect(passwordResetError({ ...reset, code: '' })).toBe('Todos los campos son obligatorios');
    expect(passwordResetError({ ...reset, newPassword: 'abcd', confirmation: 'abcd' })).toBe(
      'La contraseña debe tener al menos 5 caracteres',
    );
    expect(passwordResetError({ ...reset, confirmation: 'abcdf' })).toBe('Las contraseñas no coinciden');
    expect(passwordResetError(reset)).toBeUndefined();
  });

  it('resending needs an email', () => {
    expect(resendError('')).toBe(FORM_MESSAGES.resendEmailRequired);
    expect(resendError('a@b.co')).toBeUndefined();
  });
});

describe('phone countries', () => {
  it('defaults to Peru (+51), listed first', () => {
    expect(DEFAULT_PHONE_COUNTRY).toBe('PE');
    expect(PHONE_COUNTRIES[0]).toEqual({ code: 'PE', name: 'Perú', dial: '51' });
    expect(phoneCountry('XX').code).toBe('PE');
  });

  it('composes the international form from the country and the typed number', () => {
    expect(composePhone('PE', '987 654 321')).toBe('+51 987654321');
    expect(composePhone('MX', '55-1234-5678')).toBe('+52 5512345678');
    expect(composePhone('PE', '  ')).toBe('');
  });
});
