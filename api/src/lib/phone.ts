// The default export never throws (undefined when nothing reads as a number); the named parsePhoneNumber throws.
import parsePhoneNumber, { getCountryCallingCode } from 'libphonenumber-js/max';
import { HttpError } from './errors.js';

/**
 * Phones as the API takes them (README, decisions): checked with libphonenumber-js and its `max` metadata (the
 * digits must fit the country's numbering plan) and stored in E.164. The portal sends E.164; a number written
 * without '+' is read as Peruvian, the spec's default phone country.
 */
export const DEFAULT_PHONE_COUNTRY = 'PE';

/** Spec §5 and §9: digits of the international number, dialling code included (+51 and 9 digits is 11). */
export const PHONE_MIN_DIGITS = 10;

export const phoneMessages = {
  tooShort: 'El teléfono debe tener al menos 10 dígitos',
  invalid: 'El teléfono no es válido para el país elegido',
} as const;

/** The phone in E.164 ('+51912345678'), or a Spanish 400 when it is too short or not valid for its country. */
export function e164Phone(text: string): string {
  const typed = text.trim();
  // extract: false: the whole text must be the number, not a number found somewhere in it.
  const parsed = parsePhoneNumber(typed, { defaultCountry: DEFAULT_PHONE_COUNTRY, extract: false });
  const digits = parsed
    ? parsed.number.length - 1
    : typed.replace(/\D/g, '').length +
      (typed.startsWith('+') ? 0 : getCountryCallingCode(DEFAULT_PHONE_COUNTRY).length);
  if (digits < PHONE_MIN_DIGITS) throw new HttpError(400, phoneMessages.tooShort, 'INVALID_PHONE');
  if (!parsed?.isValid()) throw new HttpError(400, phoneMessages.invalid, 'INVALID_PHONE');
  return parsed.number;
}

/**
 * A phone on a profile edit: empty clears it (accounts from Google or Apple have none), the stored value sent back
 * unchanged is kept as it is (values stored before this check need not be E.164), anything else goes through
 * e164Phone.
 */
export function editedPhone(text: string, stored: string): string {
  const value = text.trim();
  return value === '' || value === stored ? value : e164Phone(value);
}
