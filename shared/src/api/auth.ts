import type { CompanyAccess, CompanyLinked, User } from '../types/entities';
import { FALLBACK } from '../messages/es';
import { request } from './client';
import { API_PATHS } from '@portal/contracts/api/paths';

export function fetchCurrentUser(): Promise<User> {
  return request('get', API_PATHS.auth.currentUser, { fallback: FALLBACK.currentUser });
}

/**
 * Spec §7: logout is called with no payload. Ends the session; answers `siguiente` when SAML apps take their logout
 * through this browser (API decision 0113).
 */
export function logoutCall(): Promise<{ siguiente?: string } | undefined> {
  return request('post', API_PATHS.auth.logout, { fallback: 'Error al cerrar sesión' });
}

/** A token scoped to one partner target, minted with the current session (API `POST /auth/partner-token`). */
export interface PartnerToken {
  access_token: string;
  expires_in: number;
  audience: string;
}

export function mintPartnerToken(redirectUrl: string): Promise<PartnerToken> {
  return request('post', API_PATHS.auth.partnerToken, {
    json: { redirect_url: redirectUrl },
    fallback: 'No se pudo abrir la aplicación asociada',
  });
}

/**
 * Which company's own sign-in answers for an address's domain (API `GET auth/empresa/acceso`); `permitirContrasena`
 * false: the company asks its people to sign in with its own access only (no portal password).
 */
export function companyAccess(email: string): Promise<CompanyAccess> {
  return request('get', API_PATHS.auth.companyAccess, {
    searchParams: { email: email.trim() },
    fallback: 'No se pudo consultar el acceso de tu empresa',
  });
}

/**
 * Where 'Continuar con el acceso de <empresa>' sends the browser (a navigation): the API starts the company's own
 * sign-in, bound to this tab like Google's and Apple's (`binding`: the SHA-256 of the tab's secret).
 */
export function companySignInUrl(
  apiBaseUrl: string,
  email: string,
  redirectUrl?: string | null,
  binding?: string | null,
): string {
  const url = new URL(`${apiBaseUrl}/${API_PATHS.auth.companySignIn}`);
  url.searchParams.set('email', email.trim());
  if (binding) url.searchParams.set('binding', binding);
  if (redirectUrl) url.searchParams.set('redirect_url', redirectUrl);
  return url.toString();
}

/** Links the signed-in account to the company's access that asked for proof of both sides (`POST auth/empresa/vincular`). */
export function linkCompanyAccess(codigo: string, secreto: string): Promise<CompanyLinked> {
  return request('post', API_PATHS.auth.companyLink, {
    json: { codigo, secreto },
    fallback:
      'No se pudo vincular tu cuenta al acceso de tu empresa. Vuelve a pulsar «Continuar con el acceso de tu empresa».',
  });
}
