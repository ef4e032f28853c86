import type { PhoneInput } from './phone';
import type { PhoneRules } from './phone-rules';
import { emailError, FORM_MESSAGES, type FieldErrors } from './rules';

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
