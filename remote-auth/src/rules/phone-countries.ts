import type { CountryCode } from 'libphonenumber-js';
import { PHONE_COUNTRY_CODES } from './phone-country-codes';

/**
 * Countries of the phone selector: every country libphonenumber-js knows, named in Spanish by the browser
 * (Intl.DisplayNames), with the portal's usual countries first (Peru by default, spec §9) and the rest in Spanish
 * alphabetical order. The codes come from a table checked against the library (phone-country-codes.ts), so the
 * selector needs none of the library's metadata.
 */
export interface PhoneCountry {
  code: CountryCode;
  name: string;
  dial: string;
}

export const DEFAULT_PHONE_COUNTRY: CountryCode = 'PE';

/** Where the portal's customers are (README, decisions): Peru, then its neighbours and main partners. */
export const COMMON_PHONE_COUNTRIES: readonly CountryCode[] = ['PE', 'MX', 'CO', 'CL', 'AR', 'EC', 'BO', 'ES', 'US'];

const regionNames = new Intl.DisplayNames(['es'], { type: 'region' });

const dialOf = (code: CountryCode): string => PHONE_COUNTRY_CODES[code] ?? '';

function country(code: CountryCode): PhoneCountry {
  return { code, name: regionNames.of(code) ?? code, dial: dialOf(code) };
}

const common = COMMON_PHONE_COUNTRIES.map(country);
const others = (Object.keys(PHONE_COUNTRY_CODES) as CountryCode[])
  .filter((code) => !COMMON_PHONE_COUNTRIES.includes(code))
  .map(country)
  .sort((a, b) => a.name.localeCompare(b.name, 'es'));

/** The selector's two groups: the usual countries, then all the others. */
export const PHONE_COUNTRY_GROUPS: { common: readonly PhoneCountry[]; others: readonly PhoneCountry[] } = {
  common,
  others,
};

export const PHONE_COUNTRIES: readonly PhoneCountry[] = [...common, ...others];

export function isPhoneCountry(code: string): code is CountryCode {
  return PHONE_COUNTRIES.some((option) => option.code === code);
}
