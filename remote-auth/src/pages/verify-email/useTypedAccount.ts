import { useCallback, useRef, useState } from 'react';
import type { AccountProfile } from '@portal/shared';
import { DEFAULT_PHONE_COUNTRY } from '../../rules/phone-countries';
import { loadedPhoneRules, loadPhoneRules } from '../../rules/phone-rules';
import { hasErrors, type FieldErrors, type NewPassword, validateRegistrationPassword } from '../../rules/forms';
import { type RegistrationProfile, recheckShown, validateRegistrationDetails } from '../../rules/registration';

type Field = keyof RegistrationProfile | keyof NewPassword;

const EMPTY: RegistrationProfile = { name: '', lastName: '', phone: { country: DEFAULT_PHONE_COUNTRY, number: '' } };

function problems(email: string, profile: RegistrationProfile, secret: NewPassword): FieldErrors<Field> | undefined {
  const rules = loadedPhoneRules();
  if (!rules) return undefined;
  const { name, lastName, phone } = validateRegistrationDetails({ email, ...profile }, rules);
  return { name, lastName, phone, ...validateRegistrationPassword(secret) };
}

/**
 * The password and profile typed beside the code on a device that did not register (docs/decisions/0006): the same
 * fields and rules as registration's two steps, checked when the code is sent. `profile` may come filled from
 * registration's step 1.
 */
export function useTypedAccount(email: string, arrived: RegistrationProfile | undefined) {
  const [profile, setProfile] = useState<RegistrationProfile>(arrived ?? EMPTY);
  const [secret, setSecret] = useState<NewPassword>({ password: '', confirmation: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [rulesFailed, setRulesFailed] = useState(false);
  const fields = useRef<HTMLDivElement>(null);
  // As last changed, ahead of the render: changes that come before React renders again build on each other.
  const latest = useRef({ profile, secret });
  // Whether the person has typed in these fields, and whether a send already led them there (see `checked`).
  const typedIn = useRef(false);
  const ledHere = useRef(false);

  // Errors show only after a send; then each field shown in error takes its fresh result as it is corrected.
  const recheck = (nextProfile: RegistrationProfile, nextSecret: NewPassword) => {
    const fresh = problems(email, nextProfile, nextSecret);
    if (fresh) setErrors((shown) => recheckShown(shown, fresh));
  };

  /** The focus on the first field left to fill (the first one when all are filled), without an error. */
  const leadToFields = useCallback(() => {
    ledHere.current = true;
    const inputs = [...(fields.current?.querySelectorAll('input') ?? [])];
    (inputs.find((input) => !input.value) ?? inputs[0])?.focus();
  }, []);

  return {
    fieldsRef: fields,
    leadToFields,
    profile: {
      values: profile,
      errors,
      change: (change: Partial<RegistrationProfile>) => {
        typedIn.current = true;
        const next = { ...latest.current.profile, ...change };
        latest.current.profile = next;
        setProfile(next);
        recheck(next, latest.current.secret);
      },
    },
    password: {
      values: secret,
      errors,
      change: (change: Partial<NewPassword>) => {
        typedIn.current = true;
        const next = { ...latest.current.secret, ...change };
        latest.current.secret = next;
        setSecret(next);
        recheck(latest.current.profile, next);
      },
    },
    rulesFailed,
    /**
     * The profile to send with the code, or undefined (errors shown, focus on the first) when something is wrong. The
     * code sent before anything was typed here is the page's first step, not a mistake: the focus goes to the first
     * field left to fill, with no error yet; the next send says what is missing.
     */
    async checked(): Promise<AccountProfile | undefined> {
      let rules = loadedPhoneRules();
      if (!rules) {
        try {
          rules = await loadPhoneRules();
        } catch {
          setRulesFailed(true);
          return undefined;
        }
      }
      setRulesFailed(false);
      const found = problems(email, profile, secret) ?? {};
      if (hasErrors(found) && !typedIn.current && !ledHere.current) {
        leadToFields();
        return undefined;
      }
      setErrors(found);
      if (hasErrors(found)) {
        setTimeout(() => fields.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
        return undefined;
      }
      return {
        name: profile.name.trim(),
        lastName: profile.lastName.trim(),
        // Checked above, so valid: the API receives E.164.
        phone: rules.toE164(profile.phone) ?? '',
        password: secret.password,
      };
    },
  };
}
