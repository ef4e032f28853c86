/** Countries of the phone selector (registration), Peru first and by default (spec §9). */
export interface PhoneCountry {
  code: string;
  name: string;
  dial: string;
}

export const PHONE_COUNTRIES: readonly PhoneCountry[] = [
  { code: 'PE', name: 'Perú', dial: '51' },
  { code: 'AR', name: 'Argentina', dial: '54' },
  { code: 'BO', name: 'Bolivia', dial: '591' },
  { code: 'BR', name: 'Brasil', dial: '55' },
  { code: 'CL', name: 'Chile', dial: '56' },
  { code: 'CO', name: 'Colombia', dial: '57' },
  { code: 'CR', name: 'Costa Rica', dial: '506' },
  { code: 'CU', name: 'Cuba', dial: '53' },
  { code: 'EC', name: 'Ecuador', dial: '593' },
  { code: 'SV', name: 'El Salvador', dial: '503' },
  { code: 'ES', name: 'España', dial: '34' },
  { code: 'US', name: 'Estados Unidos', dial: '1' },
  { code: 'GT', name: 'Guatemala', dial: '502' },
  { code: 'HN', name: 'Honduras', dial: '504' },
  { code: 'MX', name: 'México', dial: '52' },
  { code: 'NI', name: 'Nicaragua', dial: '505' },
  { code: 'PA', name: 'Panamá', dial: '507' },
  { code: 'PY', name: 'Paraguay', dial: '595' },
  { code: 'PR', name: 'Puerto Rico', dial: '1' },
  { code: 'DO', name: 'República Dominicana', dial: '1' },
  { code: 'UY', name: 'Uruguay', dial: '598' },
  { code: 'VE', name: 'Venezuela', dial: '58' },
];

export const DEFAULT_PHONE_COUNTRY = 'PE';

export function phoneCountry(code: string): PhoneCountry {
  return PHONE_COUNTRIES.find((country) => country.code === code) ?? (PHONE_COUNTRIES[0] as PhoneCountry);
}

/** The phone as stored: international form, '+51 987654321'; empty when no number was typed. */
export function composePhone(countryCode: string, national: string): string {
  const digits = national.replace(/\D/g, '');
  return digits ? `+${phoneCountry(countryCode).dial} ${digits}` : '';
}
