import { TextField, type TextFieldProps } from '@portal/shared';

type EmailFieldProps = Omit<TextFieldProps, 'label' | 'type' | 'onChange' | 'value'> & {
  value: string;
  onChange(value: string): void;
};

/** The 'Email' field of the sign-in screens (login, registration, password recovery). */
export function EmailField({ value, onChange, autoComplete = 'email', ...rest }: EmailFieldProps) {
  return (
    <TextField
      label="Email"
      type="email"
      autoComplete={autoComplete}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      {...rest}
    />
  );
}
