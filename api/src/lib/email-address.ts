// One reading of an email address wherever one enters: registration, sign-in, invitations, a company's OpenID Connect
// and SAML sign-in, its directory's SCIM userName, the join by domain (docs/decisions/0118-email-address-normalisation.md).
import { domainToASCII, domainToUnicode } from 'node:url';

/** Spaces around, and the root's final dot (`acme.com.` is `acme.com` in DNS) with any spaces beside it. */
const edges = /^\s+|[\s.]+$/g;

/** A domain as companies keep it: lower-case, IDN in ASCII, without spaces around or the root's final dot. */
export const normalizeDomain = (input: string): string =>
  domainToASCII(input.toLowerCase().replace(edges, '')).replace(edges, '');

/**
 * An address as accounts keep and compare it: lower-case, without spaces around, its domain spelled one way (the
 * root's final dot dropped, full-width or ideographic dots and letters and an IDN's ASCII form read as the domain
 * they name, kept in Unicode as people write it). A domain that is no domain is left as written, for the caller's
 * check to refuse.
 */
export function normalizeEmail(input: string): string {
  const email = input.toLowerCase().replace(edges, '');
  const at = email.lastIndexOf('@');
  const domain = at < 0 ? '' : normalizeDomain(email.slice(at + 1));
  const spelled = domain && domainToUnicode(domain);
  return spelled ? `${email.slice(0, at)}@${spelled}` : email;
}

/** An address with one @ and no spaces or control characters (as the schemas' Email). */
export const isEmailAddress = (text: string): boolean => /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u.test(text);

/** The domain of an address as companies keep domains, or '' when it has none. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : normalizeDomain(email.slice(at + 1));
}
