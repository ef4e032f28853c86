import { useCallback, useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import { Button, type CompanyAccess, companyAccess, companySignInUrl, theme } from '@portal/shared';
import { leaveForProviderSignIn } from '../../components/provider-sign-in';

/** How long the address rests before its domain is asked about (a blur asks at once). */
export const COMPANY_ACCESS_DELAY_MS = 300;

const PLAUSIBLE_EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)*\.[^\s@.]{2,}$/;

/** Whether an address is worth asking about: a whole one, not one being typed ('ana@', 'ana@minera.'). */
export function isPlausibleEmail(email: string): boolean {
  const value = email.trim();
  return value.length <= 254 && PLAUSIBLE_EMAIL.test(value);
}

const domainOf = (email: string) =>
  email
    .trim()
    .toLowerCase()
    .slice(email.trim().lastIndexOf('@') + 1);

/** The company whose own sign-in answers for an address. */
export interface CompanyForEmail {
  nombre: string;
  /** false: no portal password for its people (the password form gives way to the company's button). */
  permitirContrasena: boolean;
}

function companyOf(answer: CompanyAccess | undefined): CompanyForEmail | null {
  const name = answer?.empresa?.nombre;
  return typeof name === 'string' && name.trim()
    ? { nombre: name.trim(), permitirContrasena: answer?.permitirContrasena !== false }
    : null;
}

/**
 * Home-realm discovery on /login (docs/decisions/0080-company-sign-in.md): once the address is a plausible one and
 * rests for a moment (or the field is left: `lookUp`), the API is asked which company's own sign-in answers for its
 * domain. Answers are kept by domain; one for an address no longer in the field is never shown; a failed question
 * is no reason to trouble the page (the password form stays, and the API's refusal would say why).
 */
export function useCompanyAccess(email: string) {
  const [known, setKnown] = useState<Readonly<Record<string, CompanyAccess>>>({});
  // Domains asked about or answered: each is asked once while the page is up (a failure may be asked again).
  const asked = useRef(new Set<string>());
  const onScreen = useRef(true);
  useEffect(() => {
    onScreen.current = true;
    return () => {
      onScreen.current = false;
    };
  }, []);

  const lookUp = useCallback((address: string) => {
    if (!isPlausibleEmail(address)) return;
    const domain = domainOf(address);
    if (asked.current.has(domain)) return;
    asked.current.add(domain);
    companyAccess(address).then(
      (answer) => {
        if (typeof answer !== 'object' || answer === null) return;
        if (onScreen.current) setKnown((kept) => ({ ...kept, [domain]: answer }));
      },
      () => asked.current.delete(domain),
    );
  }, []);

  useEffect(() => {
    if (!isPlausibleEmail(email)) return undefined;
    const timer = setTimeout(() => lookUp(email), COMPANY_ACCESS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [email, lookUp]);

  // Read for the address in the field now: an answer about another domain (a stale one) is never this one's.
  const company = isPlausibleEmail(email) ? companyOf(known[domainOf(email)]) : null;
  return { company, lookUp };
}

const CompanyButton = styled(Button)`
  padding: 10px 18px;
  text-align: center;
  overflow-wrap: anywhere;
`;

export const COMPANY_ONLY_TEXT = 'Tu empresa inicia sesión con su propio acceso.';

/** The company's own sign-in as a way in: the browser goes to the API, bound to this tab like Google and Apple. */
export function startCompanySignIn(email: string, redirectUrl: string | null): Promise<void> {
  return leaveForProviderSignIn(redirectUrl, (apiBaseUrl, binding) =>
    companySignInUrl(apiBaseUrl, email, redirectUrl, binding),
  );
}

/** 'Continuar con el acceso de <empresa>'. */
export function CompanySignInButton({
  company,
  email,
  redirectUrl,
  disabled,
}: {
  company: CompanyForEmail;
  email: string;
  redirectUrl: string | null;
  disabled?: boolean;
}) {
  const [leaving, setLeaving] = useState(false);
  return (
    <CompanyButton
      $block
      disabled={disabled || leaving}
      onClick={() => {
        setLeaving(true);
        void startCompanySignIn(email, redirectUrl).finally(() => setLeaving(false));
      }}
    >
      {`Continuar con el acceso de ${company.nombre}`}
    </CompanyButton>
  );
}

export const CompanyOnly = styled.p`
  margin: 0;
  color: ${theme.color.muted};
`;
