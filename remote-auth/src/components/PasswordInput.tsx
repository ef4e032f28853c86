import { PasswordField, type TextFieldProps } from '@portal/shared';

type PasswordInputProps = Omit<TextFieldProps, 'type' | 'onChange' | 'value'> & {
  value: string;
  onChange(value: string): void;
};

/**
 * A password field of the sign-in screens and the profile, handing on the text typed. A new password unless
 * `autoComplete` says it is the current one (sign-in, the profile's 'Contraseña actual').
 */
export function PasswordInput({ onChange, autoComplete = 'new-password', ...rest }: PasswordInputProps) {
  return <PasswordField autoComplete={autoComplete} {...rest} onChange={(event) => onChange(event.target.value)} />;
}
