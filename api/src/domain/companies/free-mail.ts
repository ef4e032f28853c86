import freeMailDomainList from 'email-providers/all.json' with { type: 'json' };

/**
 * Free-mail and forwarding providers that the maintained package (`email-providers`) lacks: anyone can get an address
 * there, so no company may claim them (docs/decisions/0076-email-domain-join.md). Only what the package lacks: a test
 * fails once the package lists one of them, so the addition goes and the package stays the source.
 */
export const freeMailAdditions = [
  'addy.io',
  'anonaddy.me',
  'disroot.org',
  'duck.com',
  'fastmail.com',
  'fastmail.net',
  'keemail.me',
  'mailfence.com',
  'posteo.de',
  'posteo.net',
  'riseup.net',
  'simplelogin.com',
  'startmail.com',
  'tuta.com',
  'tuta.io',
  'tutamail.com',
  'tutanota.com',
  'tutanota.de',
  'zohomail.com',
] as const;

/** The package's free-mail domains. */
export const packagedFreeMailDomains: readonly string[] = freeMailDomainList;

/** Every free-mail domain: the package's and the additions. */
export const freeMailDomains: ReadonlySet<string> = new Set([...packagedFreeMailDomains, ...freeMailAdditions]);
