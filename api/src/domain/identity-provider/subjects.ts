// The subject (`sub`) a partner app knows a person by (docs/decisions/0083-subjects.md). Inside the portal the
// provider's accountId stays the account id (sessions, grants, tokens and migration 0018's triggers find people by
// it); every `sub` that leaves the portal goes through `subjectFor`, by the client's kind:
// - numerico: the account id, what the apps registered before migration 0024 stored, kept for them;
// - opaco: the account's public id, a random uuid that says nothing of how many accounts exist (the same in every
//   such app);
// - por_cliente: HMAC-SHA256 of the public id under the client's own salt (pairwise, as Keycloak and Zitadel offer):
//   two apps cannot join their people, and no one can go back to the account without the salt.
import { createHmac, randomBytes } from 'node:crypto';
import type { OidcSubjectKind } from '../../db/schema.js';

export type { OidcSubjectKind };

/** What a client's subjects are made from: its kind and, for 'por_cliente', its salt (base64url). */
export interface SubjectRule {
  kind: OidcSubjectKind;
  salt: string | null;
}

/** The account a subject is made of: its id and its public id. */
export interface SubjectAccount {
  id: number;
  publicId: string;
}

/** A new client's salt for pairwise subjects: 32 random bytes, made once and never changed. */
export const newSubjectSalt = () => randomBytes(32).toString('base64url');

/** A person's subject for a client. Pure and cheap: it runs on every userinfo, token and introspection answer. */
export function subjectFor(rule: SubjectRule, account: SubjectAccount): string {
  if (rule.kind === 'numerico') return String(account.id);
  if (rule.kind === 'opaco') return account.publicId;
  // A 'por_cliente' client always has its salt (oidc/clients.ts makes it with the kind); without one there is no
  // subject to give, and answering the public id instead would link the app with the others.
  if (!rule.salt) throw new Error('a por_cliente client without its subject salt');
  return createHmac('sha256', Buffer.from(rule.salt, 'base64url')).update(account.publicId).digest('base64url');
}
