import { useId } from 'react';
import styled from 'styled-components';
import { Input, theme } from '@portal/shared';
import { PHONE_COUNTRIES } from '../../forms/phone-countries';

const Field = styled.div`
  display: flex;
  flex-direction: column;
  gap: 6px;
  label { font-weight: 600; }
`;

const Inputs = styled.div`
  display: flex;
  gap: 8px;
`;

const Select = styled.select`
  flex: 0 0 auto;
  max-width: 46%;
  min-height: 44px;
  padding: 0 8px;
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius};
  font: inherit;
  color: ${theme.color.text};
  background: ${theme.color.surface};
  &:focus { outline: 3px solid ${theme.color.infoBg}; border-color: ${theme.color.primary}; }
`;

const ErrorText = styled.p`
  margin: 0;
  color: ${theme.color.danger};
  font-size: 0.875rem;
`;

/** The phone with its country (spec §2: Peru by default): a country selector and the national number. */
export function PhoneField({
  country,
  number,
  error,
  onCountryChange,
  onNumberChange,
}: {
  country: string;
  number: string;
  error?: string;
  onCountryChange: (code: string) => void;
  onNumberChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <Field>
      <label htmlFor={`${id}-number`}>Teléfono</label>
      <Inputs>
        <Select aria-label="País del teléfono" value={country} onChange={(e) => onCountryChange(e.target.value)}>
          {PHONE_COUNTRIES.map((option) => (
            <option key={option.code} value={option.code}>
              {option.name} (+{option.dial})
            </option>
          ))}
        </Select>
        <Input
          id={`${id}-number`}
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          value={number}
          $invalid={Boolean(error)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => onNumberChange(e.target.value)}
        />
      </Inputs>
      {error && <ErrorText id={`${id}-error`}>{error}</ErrorText>}
    </Field>
  );
}
