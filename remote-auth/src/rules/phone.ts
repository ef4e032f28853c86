// The default export never throws (undefined when nothing reads as a number); the named parsePhoneNumber throws.
import parsePhoneNumber, { type CountryCode, getCountryCallingCode, type PhoneNumber } from 'libphonenumber-js/max';
import { DEFAULT_PHONE_COUNTRY } from './phone-countries';
import { PHONE_MIN_DIGITS } from '@portal/shared';
import { FORM_MESSAGES } from './forms';

/**
 * The phone rules of /register and /perfil, with libphonenumber-js and its `max` metadata: a number is valid when its
 * digits fit its country's numbering plan, not only its length (README, decisions). Apart from rules.ts because the
 * metadata must never load with /login: /perfil imports this module with its page, /register only when the phone is
 * first used (phone-rules.ts).
 */

/** What the phone field holds: the chosen country and the number as typed (national, or international with '+'). */
export interface PhoneInput {
  country: CountryCode;
  number: string;
}

/** The typed number read for its country; a number typed with '+' carries its own country. */
function parse({ country, number }: PhoneInput): PhoneNumber | undefined {
  // extract: false: the whole text must be the number, not a number found somewhere in it.
  return parsePhoneNumber(number.trim(), { defaultCountry: country, extract: false });
}

/** Digits of the international number, dialling code included, also for text the library cannot read. */
function internationalDigits(input: PhoneInput, parsed: PhoneNumber | undefined): number {
  if (parsed) return parsed.number.length - 1;
  const typed = input.number.replace(/\D/g, '');
  return input.number.trim().startsWith('+')
    ? typed.length
    : getCountryCallingCode(input.country).length + typed.length;
}

/** Spec §5: required, at least 10 digits (dialling code included: +51 and 9 digits is 11), then valid for its country. */
export function phoneError(input: PhoneInput): string | undefined {
  if (!input.number.trim()) return FORM_MESSAGES.phoneRequired;
  const parsed = parse(input);
  if (internationalDigits(input, parsed) < PHONE_MIN_DIGITS) return FORM_MESSAGES.phoneTooShort;
  return parsed?.isValid() ? undefined : FORM_MESSAGES.phoneInvalid;
}

/** The number as it is sent and stored: E.164 ('+51912345678'); undefined unless it is valid. */
export function toE164(input: PhoneInput): string | undefined {
  const parsed = parse(input);
  return parsed?.isValid() ? parsed.number : undefined;
}

/**
 * A stored phone as the field shows it: its country and the national format ('912 345 678'). Values stored before
 * numbers were checked ('+51 987654321') read the same; what the library cannot read stays as stored, under Peru.
 */
export function phoneInputOf(stored: string): PhoneInput {
  const parsed = parsePhoneNumber(stored, { defaultCountry: DEFAULT_PHONE_COUNTRY, extract: false });
  if (parsed?.country && parsed.isValid()) return { country: parsed.country, number: parsed.formatNational() };
  return { country: DEFAULT_PHONE_COUNTRY, number: stored };
}

/**
 * What the profile sends as the phone: '' clears it, a valid number goes in E.164, and a value stored before numbers
 * were checked that the person left as it was is sent back unchanged (the API keeps it); anything else is an error.
 */
export function profilePhone(input: PhoneInput, stored: string): { phone: string } | { error: string } {
  if (!input.number.trim()) return { phone: '' };
  const e164 = toE164(input);
  if (e164) return { phone: e164 };
  const shown = phoneInputOf(stored);
  if (stored && input.number === shown.number && input.country === shown.country) return { phone: stored };
  return { error: phoneError(input) ?? FORM_MESSAGES.phoneInvalid };
}
