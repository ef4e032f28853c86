import { forwardRef, useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from './theme';

const Field = styled.div`
  display: flex;
  flex-direction: column;
  gap: 6px;
`;

const Label = styled.label`
  font-weight: 600;
  color: ${theme.color.text};
`;

const InputRow = styled.div`
  position: relative;
  display: flex;
`;

export const Input = styled.input<{ $invalid?: boolean }>`
  flex: 1;
  min-height: 44px;
  min-width: 0;
  padding: 0 12px;
  border: 1px solid ${(p) => (p.$invalid ? theme.color.danger : theme.color.border)};
  border-radius: ${theme.radius};
  font: inherit;
  color: ${theme.color.text};
  background: ${theme.color.surface};
  &:focus { outline: 3px solid ${theme.color.primary}; outline-offset: 1px; border-color: ${theme.color.primary}; }
  &:disabled { background: ${theme.color.background}; }
`;

/** A native select in the inputs' look (the admin filters, the phone's country). */
export const Select = styled.select`
  min-height: 44px;
  padding: 0 10px;
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius};
  font: inherit;
  background: ${theme.color.surface};
  color: ${theme.color.text};
  &:focus { outline: 3px solid ${theme.color.primary}; outline-offset: 1px; border-color: ${theme.color.primary}; }
`;

const ErrorText = styled.p`
  margin: 0;
  color: ${theme.color.danger};
  font-size: 0.875rem;
`;

const HintText = styled.p`
  margin: 0;
  color: ${theme.color.muted};
  font-size: 0.875rem;
`;

const RevealButton = styled.button`
  position: absolute;
  right: 6px;
  top: 50%;
  transform: translateY(-50%);
  border: 0;
  background: transparent;
  color: ${theme.color.primary};
  font: inherit;
  font-size: 0.875rem;
  cursor: pointer;
  padding: 6px;
`;

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | null;
  hint?: string;
}

/** The label, the input (with what follows it in its row) and the hint and error tied to it for screen readers. */
const LabelledInput = forwardRef<HTMLInputElement, TextFieldProps & { after?: (inputId: string) => ReactNode }>(
  function LabelledInput({ label, error, hint, id, after, ...inputProps }, ref) {
    const generatedId = useId();
    const inputId = id ?? generatedId;
    const describedBy = [error ? `${inputId}-error` : '', hint ? `${inputId}-hint` : ''].filter(Boolean).join(' ');
    return (
      <Field>
        <Label htmlFor={inputId}>{label}</Label>
        <InputRow>
          <Input
            ref={ref}
            id={inputId}
            $invalid={Boolean(error)}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy || undefined}
            {...inputProps}
          />
          {after?.(inputId)}
        </InputRow>
        {hint && <HintText id={`${inputId}-hint`}>{hint}</HintText>}
        {error && <ErrorText id={`${inputId}-error`}>{error}</ErrorText>}
      </Field>
    );
  },
);

/** A labelled input with its error and hint tied to it for screen readers. */
export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(props, ref) {
  return <LabelledInput ref={ref} {...props} />;
});

/** A password input with a show/hide toggle. */
export const PasswordField = forwardRef<HTMLInputElement, Omit<TextFieldProps, 'type'>>(function PasswordField(
  { style, ...props },
  ref,
) {
  const [visible, setVisible] = useState(false);
  return (
    <LabelledInput
      ref={ref}
      type={visible ? 'text' : 'password'}
      style={style ?? { paddingRight: 84 }}
      {...props}
      after={(inputId) => (
        <RevealButton
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-pressed={visible}
          aria-controls={inputId}
          disabled={props.disabled}
        >
          {visible ? 'Ocultar' : 'Mostrar'}
        </RevealButton>
      )}
    />
  );
});
