import { createHmac, hkdfSync, randomInt } from 'node:crypto';
import { and, count, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { apps, companies, companyInvitations, companyMembers, type CompanyRole, users } from '../../db/schema.js';
import { HttpError, retryLater } from '../../lib/errors.js';
import { type AuditActor, recordAudit } from '../audit/log.js';
import type { Clock } from '../clock.js';
import type { Mailer } from '../mail/mailer.js';
import { companyInvitationMail } from '../mail/templates.js';
import { type AccountLimits, type CodeAttempt, codeCooldownMs } from '../sign-in-limits/limits.js';
import { limitMessages } from '../sign-in-limits/messages.js';
import type { SigningKey } from '../tokens/keys.js';
import type { CompanyAccess } from './access.js';
import { licenceNotFound, seatsBought } from './licences.js';
import { addMember } from './members.js';
import { companyMessages } from './messages.js';
import { lockedLicence } from './seat-locks.js';
import { assignSeat } from './seats.js';

export const invitationLifetimeMs = 7 * 24 * 60 * 60_000;

/** What the invitations use (the app passes itself). */
export interface InvitationDeps {
  db: Db;
  clock: Clock;
  signingKey: SigningKey;
  mailer: Pick<Mailer, 'enqueue' | 'wake'>;
  limits: Pick<AccountLimits, 'countCodeMail' | 'countInvitationMail' | 'reserveCodeCheck' | 'giveBackCodeCheck'>;
  config: Pick<Config, 'portalUrl'>;
}

export type InvitationState = 'pendiente' | 'aceptada' | 'revocada' | 'vencida';
type InvitationRow = typeof companyInvitations.$inferSelect;

export interface InvitationView {
  id: number;
  email: string;
  rol: CompanyRole;
  estado: InvitationState;
  enviadaEn: string;
  vence: string;
  /** The app whose seat the invitee gets on accepting (when the licence still has one free). */
  idApp?: number;
}

export const invitationInvalid = () => new HttpError(400, companyMessages.invitationInvalid, 'INVITACION_INVALIDA');
const invitationNotFound = () => new HttpError(404, companyMessages.invitationNotFound, 'INVITACION_NO_ENCONTRADA');
const invitationNotPending = () => new HttpError(409, companyMessages.invitationNotPending, 'INVITACION_NO_PENDIENTE');
const onlyOwnerInvitesOwner = () => new HttpError(403, companyMessages.onlyOwnerInvitesOwner, 'FORBIDDEN');

// A key of its own, derived from the signing key like the account codes' (plugins/app/codes.ts): nothing more to keep.
const keys = new WeakMap<SigningKey, Buffer>();
function invitationKey(signingKey: SigningKey): Buffer {
  let key = keys.get(signingKey);
  if (!key) {
    const material = signingKey.privateKey.export({ type: 'pkcs8', format: 'der' });
    key = Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), 'portal company invitations', 32));
    keys.set(signingKey, key);
  }
  return key;
}

/** The invitation's id is in the MAC: a hash copied to another invitation does not match there. */
const hashCode = (deps: Pick<InvitationDeps, 'signingKey'>, id: number, code: string) =>
  createHmac('sha256', invitationKey(deps.signingKey)).update(`invitation:${id}:${code}`).digest('base64url');

const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Not accepted, not revoked: the one row per company and address the unique index allows. */
const open = and(isNull(companyInvitations.acceptedAt), isNull(companyInvitations.revokedAt));
/** Open and unexpired: its code may still accept it. */
const live = (now: Date) => and(open, gt(companyInvitations.expiresAt, now));

export function invitationState(row: InvitationRow, now: Date): InvitationState {
  if (row.acceptedAt) return 'aceptada';
  if (row.revokedAt) return 'revocada';
  if (row.expiresAt <= now) return 'vencida';
  return 'pendiente';
}

export const invitationView = (row: InvitationRow, now: Date): InvitationView => ({
  id: row.id,
  email: row.email,
  rol: row.role,
  estado: invitationState(row, now),
  enviadaEn: row.sentAt.toISOString(),
  vence: row.expiresAt.toISOString(),
  ...(row.appId === null ? {} : { idApp: row.appId }),
});

/** How the mail names who invited: their name when the account has one, else their address. */
async function inviterName(db: Db, actor: AuditActor): Promise<{ name: string; email: string }> {
  if (actor.user.id === null) return { name: '', email: actor.user.email };
  const [row] = await db
    .select({ name: users.name, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, actor.user.id));
  return { name: `${row?.name ?? ''} ${row?.lastName ?? ''}`.trim(), email: row?.email ?? actor.user.email };
}

async function companyName(db: Db, companyId: number): Promise<string> {
  const [row] = await db.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId));
  return row?.name ?? '';
}

/**
 * A new code on the (locked) invitation, valid 7 days from now, and its mail in the same transaction: counted against
 * the company's and the inviter's invitation mails of the hour in that company (as many as its seats bought, with
 * floors: `invitationMailLimits`), and the address's code mails.
 */
async function mailNewCode(
  deps: InvitationDeps,
  tx: Db,
  actor: AuditActor,
  row: InvitationRow,
): Promise<InvitationRow> {
  const now = new Date(deps.clock());
  const seats = await seatsBought(tx, row.companyId, now);
  const refused =
    (await deps.limits.countInvitationMail(row.companyId, actor.user.id, seats)) ??
    (await deps.limits.countCodeMail(row.email));
  if (refused) throw refused;
  const code = newCode();
  const [updated] = await tx
    .update(companyInvitations)
    .set({
      codeHash: hashCode(deps, row.id, code),
      attempts: 0,
      sentAt: now,
      expiresAt: new Date(now.getTime() + invitationLifetimeMs),
    })
    .where(eq(companyInvitations.id, row.id))
    .returning();
  if (!updated) throw invitationNotFound();
  const mail = companyInvitationMail({
    email: updated.email,
    company: await companyName(tx, updated.companyId),
    invitedBy: await inviterName(tx, actor),
    role: updated.role,
    code,
    expiresAt: updated.expiresAt,
    portalUrl: deps.config.portalUrl,
  });
  await deps.mailer.enqueue(tx, { to: updated.email, ...mail });
  return updated;
}

const mayInvite = (access: CompanyAccess, role: CompanyRole) =>
  role !== 'propietario' || access.platform || access.role === 'propietario';

type LockedLicence = Awaited<ReturnType<typeof lockedLicence>>;

/**
 * Whether an invitation may promise a seat of `appId`, read under the licence's lock: the company has a licence of the
 * app, unexpired, with a free seat that no other live invitation promises. Pending invitations never promise more
 * seats than are free; a seat given meanwhile by hand or by a directory group may still leave one without (it then
 * joins without the seat).
 */
async function checkSeatToPromise(tx: Db, companyId: number, appId: number, licence: LockedLicence, now: Date) {
  if (!licence) throw licenceNotFound();
  if (licence.expiresAt.getTime() <= now.getTime()) {
    throw new HttpError(409, companyMessages.licenceExpired, 'LICENCIA_VENCIDA');
  }
  const [promised] = await tx
    .select({ n: count() })
    .from(companyInvitations)
    .where(and(eq(companyInvitations.companyId, companyId), eq(companyInvitations.appId, appId), live(now)));
  const free = Math.max(0, licence.seats - licence.seatsInUse);
  if ((promised?.n ?? 0) < free) return;
  const [app] = await tx.select({ name: apps.nombre }).from(apps).where(eq(apps.id, appId));
  throw new HttpError(409, companyMessages.noSeatsToPromise(app?.name ?? `la app ${appId}`, free), 'SIN_PUESTOS');
}

/**
 * Invites `email` into the company with `role`, and with a seat of `appId` when given: 409 for an address of a member
 * or with a live pending invitation (an expired or dead one is replaced); only an owner or a platform administrator
 * invites an owner. A seat needs the company's unexpired licence of the app (404 LICENCIA_NO_ENCONTRADA, 409
 * LICENCIA_VENCIDA) and a free seat no other pending invitation promises (409 SIN_PUESTOS).
 */
export async function invite(
  deps: InvitationDeps,
  actor: AuditActor,
  access: CompanyAccess,
  input: { email: string; role: CompanyRole; appId?: number },
): Promise<InvitationView> {
  const { email, role } = input;
  const appId = input.appId ?? null;
  const { companyId } = access;
  if (!mayInvite(access, role)) throw onlyOwnerInvitesOwner();
  const now = new Date(deps.clock());
  try {
    const row = await deps.db.transaction(async (tx) => {
      // The licence's lock before any other (docs/decisions/0121-one-lock-order-for-seats.md): invitations promising
      // its seats are counted one after another.
      const licence = appId === null ? undefined : await lockedLicence(tx, companyId, appId);
      const [member] = await tx
        .select({ userId: companyMembers.userId })
        .from(companyMembers)
        .innerJoin(users, eq(users.id, companyMembers.userId))
        .where(and(eq(companyMembers.companyId, companyId), eq(users.email, email)));
      if (member) throw new HttpError(409, companyMessages.alreadyMember, 'YA_ES_MIEMBRO');
      const [pending] = await tx
        .select()
        .from(companyInvitations)
        .where(and(eq(companyInvitations.companyId, companyId), eq(companyInvitations.email, email), open))
        .for('update');
      if (pending && invitationState(pending, now) === 'pendiente') throw invitationPending();
      if (appId !== null) await checkSeatToPromise(tx, companyId, appId, licence, now);
      // An expired one gives way: the audit log keeps its story.
      if (pending) await tx.delete(companyInvitations).where(eq(companyInvitations.id, pending.id));
      const [created] = await tx
        .insert(companyInvitations)
        .values({ companyId, email, role, appId, codeHash: '', invitedBy: actor.user.id, sentAt: now, expiresAt: now })
        .returning();
      if (!created) throw invitationNotFound();
      const mailed = await mailNewCode(deps, tx, actor, created);
      await recordAudit(tx, actor, [
        {
          action: 'company.invitation_create',
          target: { type: 'company', id: companyId },
          details: { invitationId: mailed.id, email, role, ...(appId === null ? {} : { appId }) },
          companyId,
        },
      ]);
      return mailed;
    });
    deps.mailer.wake();
    return invitationView(row, now);
  } catch (error) {
    // Two invitations of one address at once: the unique index of open invitations lets one through.
    const cause = (error as { cause?: { code?: string } }).cause ?? (error as { code?: string });
    if (cause?.code === '23505') throw invitationPending();
    throw error;
  }
}

const invitationPending = () => new HttpError(409, companyMessages.invitationPending, 'INVITACION_PENDIENTE');

async function lockedInvitation(tx: Db, companyId: number, id: number): Promise<InvitationRow> {
  const [row] = await tx
    .select()
    .from(companyInvitations)
    .where(and(eq(companyInvitations.id, id), eq(companyInvitations.companyId, companyId)))
    .for('update');
  if (!row) throw invitationNotFound();
  return row;
}

/**
 * A new code for an open invitation, valid 7 days again; 429 within a minute of the last mail (the account codes'
 * cooldown) or past the address's code mails of the hour.
 */
export async function resend(
  deps: InvitationDeps,
  actor: AuditActor,
  access: CompanyAccess,
  id: number,
): Promise<InvitationView> {
  const now = new Date(deps.clock());
  const row = await deps.db.transaction(async (tx) => {
    const current = await lockedInvitation(tx, access.companyId, id);
    if (current.acceptedAt || current.revokedAt) throw invitationNotPending();
    if (!mayInvite(access, current.role)) throw onlyOwnerInvitesOwner();
    const waitMs = current.sentAt.getTime() + codeCooldownMs - now.getTime();
    if (waitMs > 0) {
      throw retryLater(429, limitMessages.codeCooldown(Math.ceil(waitMs / 1000)), 'CODE_COOLDOWN', waitMs);
    }
    const mailed = await mailNewCode(deps, tx, actor, current);
    await recordAudit(tx, actor, [
      {
        action: 'company.invitation_resend',
        target: { type: 'company', id: access.companyId },
        details: { invitationId: id, email: current.email, role: current.role },
        companyId: access.companyId,
      },
    ]);
    return mailed;
  });
  deps.mailer.wake();
  return invitationView(row, now);
}

/** Revokes an open invitation (its code stops working); revoking it again changes nothing; an accepted one is 409. */
export async function revoke(deps: InvitationDeps, actor: AuditActor, access: CompanyAccess, id: number) {
  await deps.db.transaction(async (tx) => {
    const current = await lockedInvitation(tx, access.companyId, id);
    if (current.acceptedAt) throw invitationNotPending();
    if (current.revokedAt) return;
    await tx
      .update(companyInvitations)
      .set({ revokedAt: new Date(deps.clock()) })
      .where(eq(companyInvitations.id, id));
    await recordAudit(tx, actor, [
      {
        action: 'company.invitation_revoke',
        target: { type: 'company', id: access.companyId },
        details: { invitationId: id, email: current.email, role: current.role },
        companyId: access.companyId,
      },
    ]);
  });
}

/** The company's invitations, newest first (the 500 newest: the open ones and the recent history). */
export async function listInvitations(deps: Pick<InvitationDeps, 'db' | 'clock'>, companyId: number) {
  const now = new Date(deps.clock());
  const rows = await deps.db
    .select()
    .from(companyInvitations)
    .where(eq(companyInvitations.companyId, companyId))
    .orderBy(desc(companyInvitations.createdAt), desc(companyInvitations.id))
    .limit(500);
  return rows.map((row) => invitationView(row, now));
}

/** The live invitations to a person's address, for the notice on /apps. */
export async function invitationsFor(deps: Pick<InvitationDeps, 'db' | 'clock'>, email: string) {
  const rows = await deps.db
    .select({
      id: companyInvitations.id,
      companyId: companies.id,
      companyName: companies.name,
      role: companyInvitations.role,
      expiresAt: companyInvitations.expiresAt,
    })
    .from(companyInvitations)
    .innerJoin(companies, eq(companies.id, companyInvitations.companyId))
    .where(and(eq(companyInvitations.email, email), live(new Date(deps.clock()))))
    .orderBy(desc(companyInvitations.sentAt));
  return rows.map((row) => ({
    id: row.id,
    empresa: { id: row.companyId, nombre: row.companyName },
    rol: row.role,
    vence: row.expiresAt.toISOString(),
  }));
}

/**
 * Who sends a code, as its wrong codes are counted (`reserveCodeCheck` under `company_invitation`, 20 a day each):
 * the account that sends it, the address it comes from, and for a registration (which a guessed code would let
 * create the account) the invited address too. Never the invitations: a stranger's wrong codes must not expire or
 * lock what the invitee's right code opens.
 */
export type Guessers = { key: string; spent?: (refused: HttpError) => HttpError }[];

/**
 * Which live invitation to `email` the code is of, or undefined. One of the day's wrong codes of each guesser is taken
 * before comparing (so a burst compares no more than the same requests one after another), kept when the code is
 * wrong, given back when it is right; `compare: false` (a code sent for an address that is not the sender's) takes
 * them and compares nothing.
 */
export async function matchInvitationCode(
  deps: InvitationDeps,
  email: string,
  code: string,
  guessers: Guessers,
  options: { compare?: boolean } = {},
): Promise<number | undefined> {
  const taken: CodeAttempt[] = [];
  for (const { key, spent } of guessers) {
    const reserved = await deps.limits.reserveCodeCheck(key, 'company_invitation');
    if ('refused' in reserved) {
      for (const attempt of taken) await deps.limits.giveBackCodeCheck(attempt);
      throw spent ? spent(reserved.refused) : reserved.refused;
    }
    taken.push(reserved.attempt);
  }
  if (options.compare === false) return undefined;
  const rows = await deps.db
    .select({ id: companyInvitations.id, codeHash: companyInvitations.codeHash })
    .from(companyInvitations)
    .where(and(eq(companyInvitations.email, email), live(new Date(deps.clock()))));
  const match = rows.find((row) => row.codeHash === hashCode(deps, row.id, code));
  if (match) for (const attempt of taken) await deps.limits.giveBackCodeCheck(attempt);
  return match?.id;
}

/**
 * Marks the invitation accepted by `userId` and makes them a member, in one transaction: the guarded update lets one
 * of two concurrent accepts through. `code`, when given, must still be the invitation's (a resend meanwhile voids it).
 */
export async function acceptInvitationIn(
  deps: InvitationDeps,
  tx: Db,
  actor: AuditActor,
  id: number,
  email: string,
  code?: string,
): Promise<{ empresa: { id: number; nombre: string }; rol: CompanyRole }> {
  const now = new Date(deps.clock());
  // An invitation with a seat locks its licence first, as every seat change does (decision 0121).
  const [target] = await tx
    .select({ companyId: companyInvitations.companyId, appId: companyInvitations.appId })
    .from(companyInvitations)
    .where(eq(companyInvitations.id, id));
  if (target?.appId != null) await lockedLicence(tx, target.companyId, target.appId);
  const [accepted] = await tx
    .update(companyInvitations)
    .set({ acceptedAt: now, acceptedBy: actor.user.id })
    .where(
      and(
        eq(companyInvitations.id, id),
        eq(companyInvitations.email, email),
        live(now),
        code === undefined ? undefined : eq(companyInvitations.codeHash, hashCode(deps, id, code)),
      ),
    )
    .returning();
  if (!accepted || actor.user.id === null) throw invitationInvalid();
  const userId = actor.user.id;
  // An active member keeps the membership they have. One waiting for approval after a domain join is approved by
  // the invitation, which an administrator of the company sent, with its role.
  if (!(await addMember(tx, accepted.companyId, userId, accepted.role))) {
    await tx
      .update(companyMembers)
      .set({ role: accepted.role, status: 'active' })
      .where(
        and(
          eq(companyMembers.companyId, accepted.companyId),
          eq(companyMembers.userId, userId),
          eq(companyMembers.status, 'pending_approval'),
        ),
      );
  }
  const [membership] = await tx
    .select({ role: companyMembers.role })
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, accepted.companyId), eq(companyMembers.userId, userId)));
  const { appId } = accepted;
  const seat =
    appId === null ? {} : { appId, seated: await seatOnAccepting(tx, actor, accepted.companyId, appId, userId, now) };
  await recordAudit(tx, actor, [
    {
      action: 'company.invitation_accept',
      target: { type: 'company', id: accepted.companyId },
      details: { invitationId: id, email, role: accepted.role, userId, ...seat },
      companyId: accepted.companyId,
    },
  ]);
  return {
    empresa: { id: accepted.companyId, nombre: await companyName(tx, accepted.companyId) },
    rol: membership?.role ?? accepted.role,
  };
}

/**
 * The seat an accepted invitation carries, given as an administrator would give it (`assignSeat`, audited): answers
 * false, giving nothing, when it cannot be (the licence expired or full meanwhile, or the person holds it already).
 */
async function seatOnAccepting(
  tx: Db,
  actor: AuditActor,
  companyId: number,
  appId: number,
  userId: number,
  now: Date,
): Promise<boolean> {
  try {
    await assignSeat(tx, { audit: actor }, companyId, userId, appId, now);
    return true;
  } catch (error) {
    if (error instanceof HttpError) return false;
    throw error;
  }
}

/**
 * A signed-in person accepts an invitation to their own address: by its code (from the mail's link, whose `email`
 * the screen sends along) or by its id (the notice on /apps, which lists only their own). Anything else, including
 * the right code sent by another account, is the same 400; a code sent for another address is never compared and
 * counts as a wrong code of the account and of the address it came from (`origin`).
 */
export async function accept(
  deps: InvitationDeps,
  user: { id: number; email: string },
  input: { codigo?: string; email?: string; idInvitacion?: number },
  origin: string,
) {
  const actor: AuditActor = { user };
  let id: number | undefined;
  let code: string | undefined;
  if (input.codigo !== undefined) {
    const email = input.email ?? user.email;
    const guessers = [{ key: `cuenta:${user.id}` }, { key: `origen:${origin}` }];
    id = await matchInvitationCode(deps, email, input.codigo, guessers, { compare: email === user.email });
    if (email !== user.email) throw invitationInvalid();
    code = input.codigo;
  } else if (input.idInvitacion !== undefined) {
    id = input.idInvitacion;
  }
  if (id === undefined) throw invitationInvalid();
  const target = id;
  return deps.db.transaction((tx) => acceptInvitationIn(deps, tx, actor, target, user.email, code));
}

/** The invitee turns down an invitation to their address: it is closed like a revoked one. */
export async function decline(deps: InvitationDeps, user: { id: number; email: string }, id: number) {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(companyInvitations)
      .set({ revokedAt: new Date(deps.clock()) })
      .where(and(eq(companyInvitations.id, id), eq(companyInvitations.email, user.email), open))
      .returning();
    if (!row) throw invitationNotFound();
    await recordAudit(tx, { user }, [
      {
        action: 'company.invitation_decline',
        target: { type: 'company', id: row.companyId },
        details: { invitationId: id, email: row.email, role: row.role },
        companyId: row.companyId,
      },
    ]);
  });
}
