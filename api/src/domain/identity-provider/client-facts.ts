// What the portal knows of a client beyond the protocol (first party, its catalogue app, how its subjects are made), and
// which browser origins may call the provider for it.
import type { Client } from 'oidc-provider';
import { oidcSubjectKinds } from '../../db/schema.js';
import type { SubjectRule } from './subjects.js';

export interface PortalFacts {
  firstParty: boolean;
  appId: number | null;
  /** How the client's `sub` is made (subjects.ts). */
  subject: SubjectRule;
}

// Per client instance: `metadata()` maps every key of the client afresh, a large share of a userinfo call's time, and
// the library keeps one instance per version of a client's metadata.
const factsOfClient = new WeakMap<Client, Readonly<PortalFacts>>();

/** How a client's subjects are made, from its metadata (as the library or the session memory holds it). */
export function subjectRuleOf(metadata: Record<string, unknown>): Readonly<SubjectRule> {
  return Object.freeze({
    kind: (oidcSubjectKinds as readonly unknown[]).includes(metadata.portal_subject)
      ? (metadata.portal_subject as SubjectRule['kind'])
      : 'opaco',
    salt: typeof metadata.portal_subject_salt === 'string' ? metadata.portal_subject_salt : null,
  });
}

/**
 * The portal's own facts about a client: first party (no consent), the catalogue app it belongs to, and how its
 * subjects are made.
 */
export function portalFacts(client: Client): Readonly<PortalFacts> {
  let facts = factsOfClient.get(client);
  if (!facts) {
    const metadata = client.metadata() as Record<string, unknown>;
    facts = Object.freeze({
      firstParty: metadata.portal_first_party === true,
      appId: typeof metadata.portal_app_id === 'number' ? metadata.portal_app_id : null,
      subject: subjectRuleOf(metadata),
    });
    factsOfClient.set(client, facts);
  }
  return facts;
}

/**
 * The web origin of a redirect URI, or undefined for one that has none: a native app's custom scheme gives the opaque
 * origin "null", which is also what a sandboxed frame of any site sends, so it never grants anything.
 */
export function redirectOrigin(uri: string): string | undefined {
  const origin = URL.canParse(uri) ? new URL(uri).origin : 'null';
  return origin === 'null' ? undefined : origin;
}

/** A public client's token, userinfo and revocation calls come from the browser: its redirect URIs' origins only. */
export function clientAllowsOrigin(origin: string, client: Client): boolean {
  return client.redirectUris?.some((uri) => redirectOrigin(uri) === origin) === true;
}
