import type { LoginNoticeState } from './login-notice';
import type { RegistrationProfile } from './registration';

/**
 * What /verify-email may be handed by the page that sends a person there: /login's reason (kept on screen, since
 * /login showed it only for a moment), or the profile registration's step 1 took for an email whose registration was
 * made on another device, so the verification page does not ask for it again.
 */
export interface VerificationArrival extends LoginNoticeState {
  profile?: RegistrationProfile;
}
