import { getCountries, getCountryCallingCode } from 'libphonenumber-js/max';
import { phoneError, phoneInputOf, profilePhone, toE164 } from './phone';
import {
  DEFAULT_PHONE_COUNTRY,
  isPhoneCountry,
  PHONE_COUNTRIES,
  PHONE_COUNTRY_GROUPS,
  type PhoneCountry,
} from './phone-countries';
import { PHONE_COUNTRY_CODES } from './phone-country-codes';

const peru = (number: string) => ({ country: 'PE' as const, number });

describe('phone rules', () => {
  it('accepts a Peruvian mobile as people type it and sends it in E.164', () => {
    for (const typed of ['912345678', '912 345 678', '912-345-678', ' +51 912 345 678 ']) {
      expect(phoneError(peru(typed))).toBeUndefined();
      expect(toE164(peru(typed))).toBe('+51912345678');
    }
  });

  it('reads a Lima landline with its trunk prefix', () => {
    expect(toE164(peru('(01) 234-5678'))).toBe('+5112345678');
  });

  it('requires a number', () => {
    expect(phoneError(peru('  '))).toBe('El teléfono es requerido');
  });

  it("shows the spec's message while the international number has fewer than 10 digits", () => {
    expect(phoneError(peru('98765'))).toBe('El teléfono debe tener al menos 10 dígitos');
    expect(phoneError(peru('+51 1234567'))).toBe('El teléfono debe tener al menos 10 dígitos');
    // +51 and 8 digits is 10: long enough, but no Peruvian mobile has 8 digits.
    expect(phoneError(peru('98765432'))).toBe('El teléfono no es válido para el país elegido');
  });

  it('refuses numbers long enough that do not exist in the chosen country', () => {
    expect(phoneError(peru('812345678'))).toBe('El teléfono no es válido para el país elegido');
    expect(toE164(peru('812345678'))).toBeUndefined();
    // The `max` metadata checks the digits, not only the length: the `min` one would take this Mexican number.
    expect(phoneError({ country: 'MX', number: '512 345 6789' })).toBe('El teléfono no es válido para el país elegido');
    expect(phoneError(peru('llámame al 912345678'))).toBe('El teléfono no es válido para el país elegido');
  });

  it("checks a number against the chosen country, and a number typed with '+' against its own", () => {
    expect(phoneError({ country: 'MX', number: '55 1234 5678' })).toBeUndefined();
    expect(toE164({ country: 'MX', number: '55 1234 5678' })).toBe('+525512345678');
    expect(phoneError({ country: 'MX', number: '912 345 678' })).toBe('El teléfono no es válido para el país elegido');
    expect(toE164(peru('+52 55 1234 5678'))).toBe('+525512345678');
  });
});

describe('a stored phone in the field', () => {
  it('shows its country and the national format, for E.164 and for the older spaced form', () => {
    expect(phoneInputOf('+51912345678')).toEqual({ country: 'PE', number: '912 345 678' });
    expect(phoneInputOf('+51 987654321')).toEqual({ country: 'PE', number: '987 654 321' });
    expect(phoneInputOf('+12015550123')).toEqual({ country: 'US', number: '(201) 555-0123' });
  });

  it('keeps what the library cannot read as it was stored, under Peru', () => {
    expect(phoneInputOf('')).toEqual({ country: 'PE', number: '' });
    expect(phoneInputOf('12-34')).toEqual({ country: 'PE', number: '12-34' });
  });

  it('sends E.164, an empty phone, or an older value left untouched; anything else is an error', () => {
    expect(profilePhone(peru('912 345 678'), '')).toEqual({ phone: '+51912345678' });
    expect(profilePhone(phoneInputOf('+51 987654321'), '+51 987654321')).toEqual({ phone: '+51987654321' });
    expect(profilePhone(peru(''), '+51912345678')).toEqual({ phone: '' });
    expect(profilePhone(phoneInputOf('12-34'), '12-34')).toEqual({ phone: '12-34' });
    expect(profilePhone(peru('12-345'), '12-34')).toEqual({ error: 'El teléfono debe tener al menos 10 dígitos' });
    expect(profilePhone(peru('812345678'), '')).toEqual({ error: 'El teléfono no es válido para el país elegido' });
  });
});

describe('phone countries', () => {
  const names = (countries: readonly PhoneCountry[]) => countries.map((country) => country.name);

  it('lists every country the library knows, once each, Peru first and by default', () => {
    expect(DEFAULT_PHONE_COUNTRY).toBe('PE');
    expect(PHONE_COUNTRIES[0]).toEqual({ code: 'PE', name: 'Perú', dial: '51' });
    expect(PHONE_COUNTRIES.length).toBeGreaterThanOrEqual(240);
    expect(PHONE_COUNTRIES.map((country) => country.code).sort()).toEqual([...getCountries()].sort());
  });

  it("dials every country with the library's own calling code (phone-country-codes.ts is the library's table)", () => {
    const library = Object.fromEntries(getCountries().map((code) => [code, getCountryCallingCode(code)]));
    // On a failure after updating libphonenumber-js, bring phone-country-codes.ts to what the diff shows.
    expect(PHONE_COUNTRY_CODES).toEqual(library);
    expect(PHONE_COUNTRIES.every((country) => country.dial === library[country.code])).toBe(true);
  });

  it('puts the usual countries first, then the others in Spanish alphabetical order', () => {
    expect(names(PHONE_COUNTRY_GROUPS.common)).toEqual([
      'Perú',
      'México',
      'Colombia',
      'Chile',
      'Argentina',
      'Ecuador',
      'Bolivia',
      'España',
      'Estados Unidos',
    ]);
    const others = names(PHONE_COUNTRY_GROUPS.others);
    expect(others).toEqual([...others].sort((a, b) => a.localeCompare(b, 'es')));
    expect(others.slice(0, 3)).toEqual(['Afganistán', 'Albania', 'Alemania']);
    // Accents sort as their letter, not after 'z' as in code-point order.
    expect(others.indexOf('Bélgica')).toBeLessThan(others.indexOf('Belice'));
  });

  it('names countries in Spanish with their dialling code', () => {
    const byCode = (code: string) => PHONE_COUNTRIES.find((country) => country.code === code);
    expect(byCode('DE')).toEqual({ code: 'DE', name: 'Alemania', dial: '49' });
    expect(byCode('GB')).toEqual({ code: 'GB', name: 'Reino Unido', dial: '44' });
    expect(byCode('BR')).toEqual({ code: 'BR', name: 'Brasil', dial: '55' });
    expect(isPhoneCountry('BR')).toBe(true);
    expect(isPhoneCountry('XX')).toBe(false);
  });
});
