/**
 * The form rules of spec §5 and the limits of §9, as plain functions: each returns the Spanish message of the first
 * broken rule per field, or nothing when the input is fine. The phone rules, which need libphonenumber-js, are in
 * phone.ts and registration.ts, so that the pages that do not ask for a phone (/login) never load its metadata.
 */

import { PERSON_MESSAGES } from '@portal/shared';

export const PASSWORD_MIN_REGISTER = 6;
export const PASSWORD_MIN_UPDATE = 5;
export const CODE_LENGTH = 6;

export const FORM_MESSAGES = {
  ...PERSON_MESSAGES,
  phoneRequired: 'El teléfono es requerido',
  phoneInvalid: 'El teléfono no es válido para el país elegido',
  emailRequired: 'El email es requerido',
  emailInvalid: 'El email no es válido',
  passwordRequired: 'La contraseña es requerida',
  passwordTooShort: 'La contraseña debe tener al menos 6 caracteres',
  confirmationRequired: 'Confirma tu contraseña',
  passwordsDiffer: 'Las contraseñas no coinciden',
  userMissing: 'Error: Usuario no encontrado',
  bothPasswordsRequired: 'Por favor completa ambos campos de contraseña.',
  newPasswordTooShort: 'La nueva contraseña debe tener al menos 5 caracteres.',
  forgotEmailRequired: 'Por favor ingresa tu email',
  allFieldsRequired: 'Todos los campos son obligatorios',
  resetPasswordTooShort: 'La contraseña debe tener al menos 5 caracteres',
  resendEmailRequired: 'Email requerido para reenviar código',
} as const;

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export function hasErrors(errors: Record<string, string | undefined>): boolean {
  return Object.values(errors).some(Boolean);
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailError(email: string): string | undefined {
  const value = email.trim();
  if (!value) return FORM_MESSAGES.emailRequired;
  if (!EMAIL_PATTERN.test(value)) return FORM_MESSAGES.emailInvalid;
  return undefined;
}

export interface NewPassword {
  password: string;
  confirmation: string;
}

/** Step 2: the password (at least 6) and its confirmation. */
export function validateRegistrationPassword({ password, confirmation }: NewPassword): FieldErrors<keyof NewPassword> {
  return {
    password: !password
      ? FORM_MESSAGES.passwordRequired
      : password.length < PASSWORD_MIN_REGISTER
        ? FORM_MESSAGES.passwordTooShort
        : undefined,
    confirmation: !confirmation
      ? FORM_MESSAGES.confirmationRequired
      : confirmation !== password
        ? FORM_MESSAGES.passwordsDiffer
        : undefined,
  };
}

/** The verification and reset codes: digits only, at most 6. */
export function sanitizeCode(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, CODE_LENGTH);
}

export function isCompleteCode(code: string): boolean {
  return /^\d{6}$/.test(code);
}

/** Profile: the name must not be blank. */
export function profileError(name: string, lastName: string): string | undefined {
  if (!name.trim()) return FORM_MESSAGES.nameRequired;
  // The last name under the name's rule, with the registration's text (docs/decisions/0131).
  if (!lastName.trim()) return FORM_MESSAGES.lastNameRequired;
  return undefined;
}

/** Profile password tab: both fields, new one at least 5. */
export function passwordUpdateError(currentPassword: string, newPassword: string): string | undefined {
  if (!currentPassword || !newPassword) return FORM_MESSAGES.bothPasswordsRequired;
  if (newPassword.length < PASSWORD_MIN_UPDATE) return FORM_MESSAGES.newPasswordTooShort;
  return undefined;
}

export function forgotPasswordError(email: string): string | undefined {
  return email.trim() ? undefined : FORM_MESSAGES.forgotEmailRequired;
}

export interface PasswordReset {
  email: string;
  code: string;
  newPassword: string;
  confirmation: string;
}

/** Change password with the emailed code. */
export function passwordResetError({ email, code, newPassword, confirmation }: PasswordReset): string | undefined {
  if (!email.trim() || !code || !newPassword) return FORM_MESSAGES.allFieldsRequired;
  if (newPassword.length < PASSWORD_MIN_UPDATE) return FORM_MESSAGES.resetPasswordTooShort;
  if (newPassword !== confirmation) return FORM_MESSAGES.passwordsDiffer;
  return undefined;
}

export function resendError(email: string | null | undefined): string | undefined {
  return email?.trim() ? undefined : FORM_MESSAGES.resendEmailRequired;
}
