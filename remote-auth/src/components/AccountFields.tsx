import { TextField } from '@portal/shared';
import type { NewPassword, FieldErrors } from '../rules/forms';
import type { RegistrationProfile } from '../rules/registration';
import { loadPhoneRules } from '../rules/phone-rules';
import { PasswordInput } from './PasswordInput';
import { PhoneField } from './PhoneField';

type Profile = RegistrationProfile;

/** Name, last name and phone as registration asks them (spec §5): registration's step 1 and the verification page. */
export function ProfileFields({
  values,
  errors,
  disabled,
  onChange,
}: {
  values: Profile;
  errors: FieldErrors<keyof Profile>;
  disabled: boolean;
  onChange: (change: Partial<Profile>) => void;
}) {
  return (
    <>
      <TextField
        label="Nombre"
        disabled={disabled}
        autoComplete="given-name"
        value={values.name}
        error={errors.name}
        onChange={(e) => onChange({ name: e.target.value })}
      />
      <TextField
        label="Apellido"
        disabled={disabled}
        autoComplete="family-name"
        value={values.lastName}
        error={errors.lastName}
        onChange={(e) => onChange({ lastName: e.target.value })}
      />
      <PhoneField
        value={values.phone}
        disabled={disabled}
        error={errors.phone}
        onChange={(phone) => onChange({ phone })}
        // The phone rules are a chunk of their own: fetched when the phone is first touched (rules/phone-rules.ts).
        onFocus={() => void loadPhoneRules().catch(() => undefined)}
      />
    </>
  );
}

/** A new password and its confirmation, with the spec's hint: registration's step 2 and the verification page. */
export function NewPasswordFields({
  values,
  errors,
  disabled,
  onChange,
}: {
  values: NewPassword;
  errors: FieldErrors<keyof NewPassword>;
  disabled: boolean;
  onChange: (change: Partial<NewPassword>) => void;
}) {
  return (
    <>
      <PasswordInput
        label="Contraseña"
        value={values.password}
        error={errors.password}
        hint="Usa mayúsculas, números y símbolos para una contraseña más segura."
        disabled={disabled}
        onChange={(password) => onChange({ password })}
      />
      <PasswordInput
        label="Confirmar contraseña"
        value={values.confirmation}
        error={errors.confirmation}
        disabled={disabled}
        onChange={(confirmation) => onChange({ confirmation })}
      />
    </>
  );
}
