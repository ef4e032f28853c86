// What a write checks: the userName is an address at a domain the company has proved, and no unique index is broken.
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { companyDomains } from '../../../db/schema.js';
import { emailDomain, normalizeEmail } from '../../../lib/email-address.js';
import { ScimError, scimMessages as M, shown } from './errors.js';
import type { UserDraft } from './patch.js';

/** Whether the userName is an address at a domain the company has proved. */
export async function provedDomain(db: Db, companyId: number, userName: string): Promise<boolean> {
  let domain: string;
  try {
    domain = emailOf(userName).domain;
  } catch {
    return false;
  }
  return proves(db, companyId, domain);
}

/** Whether the company has proved `domain`: one lookup on the primary key. */
export async function proves(db: Db, companyId: number, domain: string): Promise<boolean> {
  const [proved] = await db
    .select({ one: sql`1` })
    .from(companyDomains)
    .where(
      and(
        eq(companyDomains.companyId, companyId),
        eq(companyDomains.domain, domain),
        isNotNull(companyDomains.verifiedAt),
      ),
    );
  return Boolean(proved);
}

const emailShape = /^[^\s@]+@[^\s@]+$/;

/** The userName's account email (lib/email-address.ts) and its domain, or the 400 invalidValue. */
export function emailOf(userName: string): { email: string; domain: string } {
  const email = normalizeEmail(userName);
  if (!emailShape.test(email) || email.length > 254)
    throw new ScimError(400, M.userNameNotEmail(shown(userName)), 'invalidValue');
  const domain = emailDomain(email);
  if (!domain.includes('.')) throw new ScimError(400, M.userNameNotEmail(shown(userName)), 'invalidValue');
  return { email, domain };
}

/** Refuses (400 invalidValue) a userName outside the company's proved domains. */
export async function checkDomain(db: Db, companyId: number, userName: string): Promise<string> {
  const { email, domain } = emailOf(userName);
  if (!(await proves(db, companyId, domain))) throw new ScimError(400, M.userNameDomain(domain), 'invalidValue');
  return email;
}

/** A unique index of company_scim_users broken: the 409 uniqueness naming what is taken. */
export function uniqueness(error: unknown, draft: UserDraft): ScimError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const { code, constraint, message } = current as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code === '23505') {
      const name = `${typeof constraint === 'string' ? constraint : ''} ${typeof message === 'string' ? message : ''}`;
      if (name.includes('company_scim_users_user_name_key')) {
        return new ScimError(409, M.userNameTaken(shown(draft.userName)), 'uniqueness');
      }
      return new ScimError(409, M.accountTaken, 'uniqueness');
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Work in which a broken unique index of company_scim_users is the 409 uniqueness. */
export async function withUniqueness<T>(draft: UserDraft, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw uniqueness(error, draft) ?? error;
  }
}

/** A transaction in which a broken unique index of company_scim_users is the 409 uniqueness. */
export function inTransaction<T>(db: Db, draft: UserDraft, work: (tx: Db) => Promise<T>): Promise<T> {
  return withUniqueness(draft, () => db.transaction(work));
}
