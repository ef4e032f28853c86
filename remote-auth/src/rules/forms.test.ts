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
  validateRegistrationPassword,
} from './forms';

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
  it('needs a name and a last name that are not blank', () => {
    expect(profileError('   ', 'Pérez')).toBe('El nombre es requerido');
    expect(profileError('Ana', '  ')).toBe('El apellido es requerido');
    expect(profileError('', '')).toBe('El nombre es requerido');
    expect(profileError('Ana', 'Pérez')).toBeUndefined();
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
