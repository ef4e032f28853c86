// Which portal account a person of a company's provider signs in to (docs/decisions/0080-company-sign-in.md), and the
// link that waits for the proof of both sides when that account has credentials of its own.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../../db/client.js';
import {
  companies,
  companyIdentities,
  companyIdentityProviders,
  companyLinkReturns,
  companyMembers,
  companyScimUsers,
  passkeys,
  userIdentities,
  users,
  type User,
} from '../../../db/schema.js';
import { HttpError } from '../../../lib/errors.js';
import { type AuditEntry, recordAudit } from '../../audit/log.js';
import { emailDomain, normalizeEmail } from '../../../lib/email-address.js';
import { findUserByEmail, findUserById } from '../../accounts/queries.js';
import { activateUser } from '../../registration/activation.js';
import { addMember } from '../members.js';
import { ssoMessages as M } from './messages.js';

/** The portal's /login?error=… codes of a refused company sign-in. */
export type CompanySignInRefusal =
  | 'company_email_unverified'
  | 'company_domain_mismatch'
  | 'company_other_account'
  | 'company_access_disabled'
  | 'company_unavailable'
  /** Too many sign-in steps from one address in a minute (the per-address limit of the company's sign-in). */
  | 'company_rate_limited'
  | 'auth_failed';

export class CompanySignInRefused extends Error {
  constructor(readonly code: CompanySignInRefusal) {
    super(code);
    this.name = 'CompanySignInRefused';
  }
}

/** What the company's provider vouched for in its ID token. */
export interface CompanyProfile {
  subject: string;
  email: string;
  /** The claim as sent: absent (Entra ID sends none), a boolean, or a string. */
  emailVerified: unknown;
  name: string;
  lastName: string;
  /**
   * The provider says it proved a second factor (`amr` mfa/otp/hwk/swk, the class REFEDS MFA or multipleauthn): the
   * session counts it only when the company trusts its provider's (provider-second-factor.ts).
   */
  secondFactor?: boolean;
}

export interface CompanyOfSignIn {
  companyId: number;
  name: string;
  domains: string[];
}

export type CompanySignInOutcome =
  | { kind: 'signed_in'; user: User }
  /** The account has credentials of its own: the link waits for POST /auth/empresa/vincular with this code. */
  | { kind: 'link'; code: string; email: string };

export const LINK_RETURN_TTL_MS = 10 * 60 * 1000;

const digest = (value: string) => createHash('sha256').update(value).digest('hex');
const refuse = (code: CompanySignInRefusal) => new CompanySignInRefused(code);
const actorOf = (user: { id: number; email: string }) => ({ user: { id: user.id, email: user.email } });

/**
 * Why the person may not come in through this company, if anything: linked to (or provisioned by the directory of)
 * another company, set inactive by this company's directory, or a suspended account.
 */
async function refusalFor(tx: Db, companyId: number, user: User): Promise<CompanySignInRefusal | undefined> {
  if (user.status === 'suspended') return 'company_access_disabled';
  const [elsewhere] = await tx
    .select({ companyId: companyIdentities.companyId })
    .from(companyIdentities)
    .where(and(eq(companyIdentities.userId, user.id), ne(companyIdentities.companyId, companyId)))
    .limit(1);
  if (elsewhere) return 'company_other_account';
  const directories = await tx
    .select({ companyId: companyScimUsers.companyId, active: companyScimUsers.active })
    .from(companyScimUsers)
    .where(eq(companyScimUsers.userId, user.id));
  if (directories.some((row) => row.companyId !== companyId && row.active)) return 'company_other_account';
  if (directories.some((row) => row.companyId === companyId && !row.active)) return 'company_access_disabled';
  return undefined;
}

/** Whether the account has a way in of its own: a password, a passkey, or a Google/Apple identity. */
async function hasOwnCredential(tx: Db, user: User): Promise<boolean> {
  if (user.passwordHash !== null) return true;
  const [row] = await rowsOf<{ found: boolean }>(
    tx,
    sql`select exists(select 1 from ${passkeys} where ${passkeys.userId} = ${user.id})
        or exists(select 1 from ${userIdentities} where ${userIdentities.userId} = ${user.id}) as found`,
  );
  return row?.found === true;
}

/**
 * Links the provider's person to the account (a link of the same account in this company under another subject is
 * replaced: a company that changes provider keeps its people) and makes them an active 'miembro' of the company (a
 * membership waiting for approval becomes active; an existing role stays). Answers the audit entries to record.
 */
async function linkAndJoin(
  tx: Db,
  company: CompanyOfSignIn,
  userId: number,
  subject: string,
  email: string,
): Promise<AuditEntry[]> {
  const { companyId } = company;
  const entries: AuditEntry[] = [];
  const target = { type: 'company' as const, id: companyId };
  const [current] = await tx
    .select({ subject: companyIdentities.subject })
    .from(companyIdentities)
    .where(and(eq(companyIdentities.companyId, companyId), eq(companyIdentities.userId, userId)));
  if (current?.subject !== subject) {
    if (current)
      await tx
        .delete(companyIdentities)
        .where(and(eq(companyIdentities.companyId, companyId), eq(companyIdentities.userId, userId)));
    const inserted = await tx
      .insert(companyIdentities)
      .values({ companyId, subject, userId, email })
      .onConflictDoNothing({ target: [companyIdentities.companyId, companyIdentities.subject] })
      .returning({ userId: companyIdentities.userId });
    // The subject is linked to another account meanwhile: nothing is moved.
    if (!inserted[0]) throw refuse('auth_failed');
    entries.push({
      action: 'company.identity_link',
      target,
      details: { userId, email, subject, fuente: 'proveedor' },
      companyId,
    });
  } else {
    await tx
      .update(companyIdentities)
      .set({ email, lastUsedAt: sql`now()` })
      .where(and(eq(companyIdentities.companyId, companyId), eq(companyIdentities.subject, subject)));
  }
  const added = await addMember(tx, companyId, userId, 'miembro', 'active');
  const approved = added
    ? []
    : await tx
        .update(companyMembers)
        .set({ status: 'active' })
        .where(
          and(
            eq(companyMembers.companyId, companyId),
            eq(companyMembers.userId, userId),
            eq(companyMembers.status, 'pending_approval'),
          ),
        )
        .returning({ role: companyMembers.role });
  if (added || approved[0])
    entries.push({
      action: 'company.member_add',
      target,
      details: { userId, email, role: approved[0]?.role ?? 'miembro', status: 'active', fuente: 'proveedor' },
      companyId,
    });
  return entries;
}

/**
 * The account a person the company's provider vouches for signs in to:
 * 1. the account linked to (company, subject), whatever its email is now at the provider;
 * 2. else the account with that email: none → a new active account; waiting for its code → activated as Google's
 *    sign-in does (its pending registrations dropped); with no credential of its own → linked; WITH credentials →
 *    no session: a link return waits for that account's owner to sign in and confirm (proof of both sides).
 * Refused: email_verified explicitly false, an email outside the connection's domains, an account of another company,
 * a person this company's directory set inactive, a suspended account.
 */
export async function signInWithCompany(
  db: Db,
  company: CompanyOfSignIn,
  profile: CompanyProfile,
  binding: string,
): Promise<CompanySignInOutcome> {
  const verified = profile.emailVerified;
  if (verified === false || (typeof verified === 'string' && verified.toLowerCase() === 'false'))
    throw refuse('company_email_unverified');
  const email = normalizeEmail(profile.email);
  if (!email.includes('@') || !company.domains.includes(emailDomain(email))) throw refuse('company_domain_mismatch');
  const { companyId } = company;

  const outcome = await db.transaction(async (tx): Promise<{ userId: number } | { code: string }> => {
    const [linked] = await tx
      .select({ userId: companyIdentities.userId })
      .from(companyIdentities)
      .where(and(eq(companyIdentities.companyId, companyId), eq(companyIdentities.subject, profile.subject)));
    let user = linked ? await findUserById(tx, linked.userId) : await findUserByEmail(tx, email);
    let created = false;
    if (!user) {
      // Moves `user_counts` and `user_day_counts` (statement triggers on users, docs/triggers.md).
      const [row] = await tx
        .insert(users)
        .values({ email, name: profile.name, lastName: profile.lastName })
        // Two first sign-ins of one person at once: the second finds the row the first created.
        .onConflictDoNothing({ target: users.email })
        .returning();
      created = row !== undefined;
      user = row ?? (await findUserByEmail(tx, email));
      if (!user) throw refuse('auth_failed');
    }
    const refusal = await refusalFor(tx, companyId, user);
    if (refusal) throw refuse(refusal);

    const entries: AuditEntry[] = [];
    if (!linked && !created && user.status === 'active' && (await hasOwnCredential(tx, user))) {
      const [already] = await tx
        .select({ subject: companyIdentities.subject })
        .from(companyIdentities)
        .where(and(eq(companyIdentities.companyId, companyId), eq(companyIdentities.userId, user.id)));
      // An account this company linked before (under a subject its provider no longer sends) proved both sides then.
      if (!already) {
        const code = randomBytes(32).toString('base64url');
        await tx.delete(companyLinkReturns).where(lt(companyLinkReturns.expiresAt, sql`now()`));
        await tx.insert(companyLinkReturns).values({
          id: digest(code),
          companyId,
          subject: profile.subject,
          userId: user.id,
          email,
          binding,
          expiresAt: new Date(Date.now() + LINK_RETURN_TTL_MS),
        });
        return { code };
      }
    }
    // The join comes before the activation, so the domain join activateUser makes finds the person already in.
    entries.push(...(await linkAndJoin(tx, company, user.id, profile.subject, email)));
    if (user.status === 'pending_verification') {
      // As signInWithIdentity: no password, every pending registration dropped, the unverified profile with them.
      await activateUser(tx, user.id);
      if (!created) {
        await tx.update(users).set({ name: '', lastName: '', phone: '' }).where(eq(users.id, user.id));
        user = { ...user, name: '', lastName: '', phone: '' };
      }
    }
    if (!user.name && !user.lastName && (profile.name || profile.lastName))
      await tx.update(users).set({ name: profile.name, lastName: profile.lastName }).where(eq(users.id, user.id));
    await tx
      .update(companyIdentityProviders)
      .set({ lastSignInAt: sql`now()` })
      .where(eq(companyIdentityProviders.companyId, companyId));
    entries.unshift({
      action: 'company.sign_in',
      target: { type: 'company', id: companyId },
      details: { userId: user.id, email, fuente: 'proveedor', ...(created && { cuentaNueva: true }) },
      companyId,
    });
    await recordAudit(tx, actorOf(user), entries);
    return { userId: user.id };
  });
  if ('code' in outcome) return { kind: 'link', code: outcome.code, email };
  const user = await findUserById(db, outcome.userId);
  if (user?.status !== 'active') throw refuse('auth_failed');
  return { kind: 'signed_in', user };
}

export const linkInvalid = () => new HttpError(400, M.linkInvalid, 'VINCULO_INVALIDO');

/**
 * Completes a waiting link (POST /auth/empresa/vincular): the code is deleted by any attempt (one statement, so two
 * concurrent attempts cannot both have it); it links only when live, for `user`, with the secret of the tab that
 * started (its SHA-256 is the binding). Answers the company.
 */
export async function completeLink(
  db: Db,
  user: { id: number; email: string },
  code: string,
  secret: string,
): Promise<{ id: number; nombre: string }> {
  const [row] = await db
    .delete(companyLinkReturns)
    .where(eq(companyLinkReturns.id, digest(code)))
    .returning({
      companyId: companyLinkReturns.companyId,
      subject: companyLinkReturns.subject,
      userId: companyLinkReturns.userId,
      email: companyLinkReturns.email,
      binding: companyLinkReturns.binding,
      live: sql<boolean>`${companyLinkReturns.expiresAt} > now()`,
    });
  if (!row?.live || row.userId !== user.id) throw linkInvalid();
  const expected = Buffer.from(row.binding);
  const given = Buffer.from(createHash('sha256').update(secret).digest('base64url'));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw linkInvalid();
  return db.transaction(async (tx) => {
    const account = await findUserById(tx, user.id);
    const [company] = await tx
      .select({ id: companies.id, name: companies.name, status: companies.status })
      .from(companies)
      .where(eq(companies.id, row.companyId));
    if (!account || !company || company.status !== 'active') throw linkInvalid();
    if (await refusalFor(tx, row.companyId, account)) throw linkInvalid();
    const entries = await linkAndJoin(
      tx,
      { companyId: row.companyId, name: company.name, domains: [] },
      account.id,
      row.subject,
      row.email,
    ).catch((error: unknown) => {
      if (error instanceof CompanySignInRefused) throw linkInvalid();
      throw error;
    });
    await recordAudit(tx, actorOf(account), entries);
    return { id: company.id, nombre: company.name };
  });
}
