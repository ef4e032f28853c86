import type { PhoneInput } from './phone';
import type { PhoneRules } from './phone-rules';
import { emailError, FORM_MESSAGES, type FieldErrors } from './forms';

/**
 * Registration step 1 (spec §5). The phone rule comes as an argument: it carries libphonenumber's metadata, which
 * /register loads only when the number is first checked (phone-rules.ts).
 */
export interface RegistrationDetails {
  email: string;
  name: string;
  lastName: string;
  phone: PhoneInput;
}

/** What a registration asks beside the email. */
export type RegistrationProfile = Omit<RegistrationDetails, 'email'>;

/** The email (checked before asking the server about it), name, last name and phone. */
export function validateRegistrationDetails(
  details: RegistrationDetails,
  { phoneError }: Pick<PhoneRules, 'phoneError'>,
): FieldErrors<keyof RegistrationDetails> {
  return {
    email: emailError(details.email),
    name: details.name.trim() ? undefined : FORM_MESSAGES.nameRequired,
    lastName: details.lastName.trim() ? undefined : FORM_MESSAGES.lastNameRequired,
    phone: phoneError(details.phone),
  };
}

/** Errors clear when corrected: a field that shows an error takes its fresh result; the others stay silent. */
export function recheckShown<K extends string>(shown: FieldErrors<K>, fresh: FieldErrors<K>): FieldErrors<K> {
  return Object.fromEntries(Object.keys(shown).map((field) => [field, fresh[field as K]])) as FieldErrors<K>;
}

/** Where step 1 leads once the server said what it knows of the email. */
export type AfterEmailCheck = 'password' | 'verification' | 'login';

/**
 * A new email goes on to the password. A pending email goes to verification only when this browser made its
 * registration; otherwise the person registers too, with a password of their own (somebody else may have registered
 * their address). An active account signs in.
 */
export function afterEmailCheck(existing: { status: string } | null, registeredHere: boolean): AfterEmailCheck {
  if (!existing || (existing.status === 'pending_verification' && !registeredHere)) return 'password';
  return existing.status === 'active' ? 'login' : 'verification';
}
