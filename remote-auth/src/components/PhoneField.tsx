import { useId, useSyncExternalStore } from 'react';
import styled from 'styled-components';
import { Input, Select, theme } from '@portal/shared';
import type { PhoneInput } from '../rules/phone';
import { isPhoneCountry, PHONE_COUNTRY_GROUPS, type PhoneCountry } from '../rules/phone-countries';

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

// A set width, not the widest option's: the list of every country comes after the first render (useHydrated below),
// and the longest names would not fit a phone.
const CountrySelect = styled(Select)`
  flex: 0 0 46%;
  max-width: 46%;
  min-width: 0;
  padding: 0 8px;
`;

const ErrorText = styled.p`
  margin: 0;
  color: ${theme.color.danger};
  font-size: 0.875rem;
`;

const options = (countries: readonly PhoneCountry[]) =>
  countries.map((option) => (
    // The names are the browser's (Intl.DisplayNames): the build's prerender of /register (Node's ICU) may name a
    // country otherwise. Hydration keeps those texts without an error, and the list is drawn again at once.
    <option key={option.code} value={option.code} suppressHydrationWarning>
      {option.name} (+{option.dial})
    </option>
  ));

const subscribeToNothing = () => () => {};

/** False while rendering the server's markup (the prerender, and the hydration that takes it over), true after. */
function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

/**
 * The phone with its country (spec §2: Peru by default), on /register and /perfil: a selector of every country
 * (the usual ones first) and the number, national or international with '+'.
 */
export function PhoneField({
  value,
  error,
  disabled,
  onChange,
  onFocus,
}: {
  value: PhoneInput;
  error?: string;
  disabled?: boolean;
  onChange: (next: PhoneInput) => void;
  /** The selector or the number got the focus. */
  onFocus?: () => void;
}) {
  const id = useId();
  const hydrated = useHydrated();
  return (
    <Field onFocus={onFocus}>
      <label htmlFor={`${id}-number`}>Teléfono</label>
      <Inputs>
        <CountrySelect
          aria-label="País del teléfono"
          value={value.country}
          disabled={disabled}
          onChange={(e) => {
            const country = e.target.value;
            if (isPhoneCountry(country)) onChange({ ...value, country });
          }}
        >
          <optgroup key={`frecuentes-${hydrated}`} label="Frecuentes">
            {options(PHONE_COUNTRY_GROUPS.common)}
          </optgroup>
          {/* Some 240 countries: left out of the prerendered page (18 KB of HTML before the rest of the form). */}
          {hydrated && <optgroup label="Todos los países">{options(PHONE_COUNTRY_GROUPS.others)}</optgroup>}
        </CountrySelect>
        <Input
          id={`${id}-number`}
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          value={value.number}
          disabled={disabled}
          $invalid={Boolean(error)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => onChange({ ...value, number: e.target.value })}
        />
      </Inputs>
      {error && <ErrorText id={`${id}-error`}>{error}</ErrorText>}
    </Field>
  );
}
