/**
 * Domains a provider shares among its tenants that the Public Suffix List does not list: each tenant gets a name under
 * them (contoso.onmicrosoft.com, a bucket under amazonaws.com), so neither the parent nor a tenant's name is a
 * company's own domain (docs/decisions/0119-company-saml-hardening.md). Only clear cases: parents at which nobody's
 * mail is, not the provider's own domain (microsoft.com, okta.com stay claimable by those companies).
 */
export const sharedParentDomains = [
  'amazonaws.com',
  'b2clogin.com',
  'googleusercontent.com',
  'onmicrosoft.com',
  'sharepoint.com',
  'windows.net',
] as const;

/** Whether `domain` (as stored: lower-case, ASCII, no final dot) is a shared parent or a name under one. */
export const underSharedParent = (domain: string): boolean =>
  sharedParentDomains.some((parent) => domain === parent || domain.endsWith(`.${parent}`));
