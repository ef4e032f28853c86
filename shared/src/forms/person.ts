/**
 * The rules of a person's name and phone that every form editing them shares (registration and profile in
 * remote-auth, the admin's 'Editar' in remote-admin): spec §5's messages and §9's minimum.
 */

/** Spec §9: digits of the international number, dialling code included (+51 and 9 digits is 11). */
export const PHONE_MIN_DIGITS = 10;

export const PERSON_MESSAGES = {
  nameRequired: 'El nombre es requerido',
  lastNameRequired: 'El apellido es requerido',
  phoneTooShort: 'El teléfono debe tener al menos 10 dígitos',
} as const;
