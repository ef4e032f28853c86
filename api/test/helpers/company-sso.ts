// A company's own sign-in walked by a browser (OAuthBrowser): GET /auth/empresa with the email, the company's test
// provider's login form (kind 'company'), and everything back to the portal.
import { OAuthBrowser, type Hop } from './oauth-browser.js';

export async function companySignIn(
  who: OAuthBrowser,
  apiUrl: string,
  email: string,
  account: string | 'cancelar',
  options: { redirectUrl?: string; intercept?: (hop: Hop) => Hop; bind?: boolean } = {},
): Promise<URL> {
  const url = new URL(`${apiUrl}/auth/empresa`);
  url.searchParams.set('email', email);
  if (options.bind ?? true) url.searchParams.set('binding', who.binding);
  if (options.redirectUrl) url.searchParams.set('redirect_url', options.redirectUrl);
  const login = await who.walk({ method: 'GET', url });
  if ('portal' in login) return login.portal;
  const form = new URLSearchParams(account === 'cancelar' ? { action: 'cancel' } : { action: 'login', account });
  const end = await who.walk({ method: 'POST', url: login.url, form }, options.intercept);
  if ('page' in end) throw new Error(`la página del proveedor no siguió: ${end.page.slice(0, 300)}`);
  return end.portal;
}

export { OAuthBrowser, type Hop };
