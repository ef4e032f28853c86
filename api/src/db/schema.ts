// Mirrors migrations/*.sql, which are the source of truth for the database; this file gives queries their types.
// One file per domain area under schema/, each table where the area that owns it is.

export * from './schema/accounts.js';
export * from './schema/audit.js';
export * from './schema/apps-and-plans.js';
export * from './schema/user-directory.js';
export * from './schema/sessions.js';
export * from './schema/billing.js';
export * from './schema/social-sign-in.js';
export * from './schema/account-codes.js';
export * from './schema/mail.js';
export * from './schema/registration.js';
export * from './schema/second-factor.js';
export * from './schema/identity-provider.js';
export * from './schema/companies.js';
export * from './schema/company-sso.js';
export * from './schema/scim.js';
export * from './schema/company-setup-links.js';
export * from './schema/partner-events.js';
export * from './schema/saml-idp.js';
export * from './schema/app-roles.js';
export * from './schema/audit-streams.js';
