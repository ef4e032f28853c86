import { type PhoneInput, phoneError } from './phone';
import { emailError, FORM_MESSAGES, type FieldErrors } from './rules';

/**
 * Registration step 1 (spec §5). Apart from rules.ts because the phone rule brings libphonenumber's metadata, which
 * only /register and /perfil load.
 */
export interface RegistrationDetails {
  email: string;
  name: string;
  lastName: string;
  phone: PhoneInput;
}

/** The email (checked before asking the server about it), name, last name and phone. */
export function validateRegistrationDetails(details: RegistrationDetails): FieldErrors<keyof RegistrationDetails> {
  return {
    email: emailError(details.email),
    name: details.name.trim() ? undefined : FORM_MESSAGES.nameRequired,
    lastName: details.lastName.trim() ? undefined : FORM_MESSAGES.lastNameRequired,
    phone: phoneError(details.phone),
  };
}
