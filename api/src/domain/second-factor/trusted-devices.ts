// Trusted devices (docs/decisions/0143-trusted-devices.md): a browser where the person proved a second factor and
// ticked 'No volver a pedir en este dispositivo durante 30 días'. Its cookie holds 32 random bytes; only their
// SHA-256 is kept, with the account's token version of that moment. A password sign-in from it skips the second step,
// without the session counting as a second factor proved: `amr`, `acr` and an app's step-up never see it. A device
// ends after 30 days, with the token version (a password change, a suspension: trigger `users_trusted_devices_end`),
// when a factor is removed, with 'Cerrar otras sesiones', when the person removes it, and is not accepted while a
// company of the person forbids them (`permitirDispositivosConfiables`) nor ever for a platform administrator
// (decision 0150). An ended device keeps its row, and why, while its cookie lives: the sign-in that asks the code again
// says why (decision 0151).
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, lte, type SQLWrapper, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import {
  companies,
  companyMembers,
  roles,
  sessions,
  type TrustedDeviceEndReason,
  trustedDeviceEndReasons,
  trustedDevices,
  users,
} from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { secondFactorMessages as M } from './messages.js';

/** The cookie's name: HttpOnly, SameSite=Lax, path '/' as the provider's session cookies, Secure over https. */
export const trustedDeviceCookie = 'portal_dispositivo_confiable';
export const TRUSTED_DEVICE_DAYS = 30;
const dayMs = 24 * 3_600_000;
const trustedDeviceMs = TRUSTED_DEVICE_DAYS * dayMs;
/**
 * The cookie outlives the trust by as long again: a sign-in that brings it after the trust ended can still say why;
 * the row goes with the cookie.
 */
export const TRUSTED_DEVICE_COOKIE_DAYS = TRUSTED_DEVICE_DAYS * 2;

/** Who may not trust a device: a platform administrator, or a member of a company that forbids it. */
export type TrustRefusal = 'administrador' | 'empresa';

export const trustedDevicesForbidden = (why: TrustRefusal) =>
  new HttpError(
    403,
    why === 'administrador' ? M.adminTrustedDevicesForbidden : M.trustedDevicesForbidden,
    'DISPOSITIVOS_NO_PERMITIDOS',
  );
export const trustedDeviceNotFound = () => new HttpError(404, M.trustedDeviceNotFound, 'DISPOSITIVO_NO_ENCONTRADO');

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** A cookie value as this module makes them (43 base64url characters): anything else is not even looked up. */
const isDeviceToken = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);

/** One of the person's active companies forbids trusted devices (SQL, for one statement with the rest). */
const companyForbids = (userId: SQLWrapper) =>
  sql`exists (select 1 from ${companyMembers} join ${companies} on ${companies.id} = ${companyMembers.companyId}
    where ${companyMembers.userId} = ${userId} and ${companyMembers.status} = 'active'
      and ${companies.status} = 'active' and not ${companies.allowTrustedDevices})`;

/** The account is a platform administrator's, whose sign-in always asks the second factor (decision 0150). */
const administers = (userId: SQLWrapper) =>
  sql`exists (select 1 from ${users} where ${users.id} = ${userId} and ${users.role} = ${roles.admin})`;

/** The device was trusted under an older token version of the account (ended by the trigger since migration 0052). */
const staleVersion = () =>
  sql`${trustedDevices.tokenVersion} <> (select ${users.tokenVersion} from ${users} where ${users.id} = ${trustedDevices.userId})`;

/** A device that still counts: not ended, not expired, trusted under the current token version, allowed. */
const live = () =>
  and(
    isNull(trustedDevices.endedAt),
    gt(trustedDevices.expiresAt, sql`now()`),
    sql`not ${staleVersion()}`,
    sql`not ${administers(trustedDevices.userId)}`,
    sql`not ${companyForbids(trustedDevices.userId)}`,
  );

/** Why the person may not trust a device now (the screens offer no checkbox), or undefined when they may. */
export async function trustRefusal(db: Db, userId: number): Promise<TrustRefusal | undefined> {
  const id = sql`${userId}::integer`;
  const [row] = await rowsOf<{ admin: boolean; company: boolean }>(
    db,
    sql`select ${administers(id)} as admin, ${companyForbids(id)} as company`,
  );
  if (row?.admin) return 'administrador';
  return row?.company ? 'empresa' : undefined;
}

/** Whether the person may trust a device now. */
export const trustedDevicesAllowed = async (db: Db, userId: number): Promise<boolean> =>
  (await trustRefusal(db, userId)) === undefined;

/**
 * Trusts the browser named `label` ('Chrome en Linux') for the account (its second factor was just proved): answers the cookie's value
 * and when the trust expires. The account's devices whose cookie is gone are swept on the way.
 */
export async function trustDevice(
  db: Db,
  user: { id: number; tokenVersion: number },
  label: string,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + trustedDeviceMs);
  await db
    .delete(trustedDevices)
    .where(
      and(
        eq(trustedDevices.userId, user.id),
        lte(
          trustedDevices.expiresAt,
          sql`now() - make_interval(days => ${TRUSTED_DEVICE_COOKIE_DAYS - TRUSTED_DEVICE_DAYS})`,
        ),
      ),
    );
  await db.insert(trustedDevices).values({
    userId: user.id,
    tokenHash: digest(token),
    tokenVersion: user.tokenVersion,
    label: label.slice(0, 200),
    expiresAt,
  });
  return { token, expiresAt };
}

/** Why an account's own trusted device no longer counts: how it was ended, or what keeps it from counting now. */
export const trustedDeviceStoppedReasons = [
  ...trustedDeviceEndReasons,
  'expirado',
  'administrador',
  'empresa',
] as const satisfies readonly (TrustedDeviceEndReason | TrustRefusal | 'expirado')[];
export type StoppedReason = (typeof trustedDeviceStoppedReasons)[number];

/** What the password sign-in makes of the cookie a browser brought. */
export type TrustedDeviceCheck = { id: number } | { stopped: StoppedReason } | undefined;

/**
 * The trusted device the cookie names, when it is one of `userId`'s and still counts: its id, its last use written.
 * One of `userId`'s that no longer counts: why, for the second step to say. Any other cookie (another account's,
 * forged, gone) answers undefined, and nothing is said of it.
 */
export async function checkTrustedDevice(db: Db, userId: number, token: unknown): Promise<TrustedDeviceCheck> {
  if (!isDeviceToken(token)) return undefined;
  const mine = and(eq(trustedDevices.tokenHash, digest(token)), eq(trustedDevices.userId, userId));
  const [row] = await db
    .update(trustedDevices)
    .set({ lastUsedAt: sql`now()` })
    .where(and(mine, live()))
    .returning({ id: trustedDevices.id });
  if (row) return { id: row.id };
  const [dead] = await db
    .select({
      ended: trustedDevices.endReason,
      stale: sql<boolean>`${staleVersion()}`,
      admin: sql<boolean>`${administers(trustedDevices.userId)}`,
      company: sql<boolean>`${companyForbids(trustedDevices.userId)}`,
    })
    .from(trustedDevices)
    .where(mine);
  if (!dead) return undefined;
  if (dead.ended) return { stopped: dead.ended };
  if (dead.stale) return { stopped: 'cuenta' };
  if (dead.admin) return { stopped: 'administrador' };
  return { stopped: dead.company ? 'empresa' : 'expirado' };
}

/** Whether the session was let in by a trusted device that still counts (the sign-in rules accept it). */
export async function sessionAdmittedByTrustedDevice(db: Db, sessionId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: trustedDevices.id })
    .from(sessions)
    .innerJoin(trustedDevices, eq(trustedDevices.id, sessions.trustedDeviceId))
    .where(and(eq(sessions.id, sessionId), live()));
  return row !== undefined;
}

/** A trusted device as 'Seguridad' lists it. */
export interface TrustedDeviceView {
  id: number;
  label: string;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  /** The browser asking is this device (its cookie came along). */
  actual: boolean;
}

/** The account's trusted devices that still count, the last used first. */
export async function listTrustedDevices(db: Db, userId: number, token: unknown): Promise<TrustedDeviceView[]> {
  const current = isDeviceToken(token) ? digest(token) : '';
  const rows = await db
    .select()
    .from(trustedDevices)
    .where(and(eq(trustedDevices.userId, userId), live()))
    .orderBy(desc(trustedDevices.lastUsedAt), desc(trustedDevices.id));
  return rows.map((row) => ({
    id: row.id,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    actual: row.tokenHash === current,
  }));
}

/** Ends one of the account's trusted devices ('Quitar'); 404 DISPOSITIVO_NO_ENCONTRADO when it has no such device. */
export async function removeTrustedDevice(db: Db, userId: number, id: number): Promise<void> {
  const removed = await db
    .update(trustedDevices)
    .set({ endedAt: sql`now()`, endReason: 'quitado' })
    .where(and(eq(trustedDevices.id, id), eq(trustedDevices.userId, userId), isNull(trustedDevices.endedAt)))
    .returning({ id: trustedDevices.id });
  if (removed.length === 0) throw trustedDeviceNotFound();
}

/**
 * Ends every trusted device of the account not ended yet, saying why: 'Quitar todos' (`quitado`), a factor removed,
 * 'Cerrar otras sesiones'. Answers how many.
 */
export async function removeTrustedDevices(
  db: Db,
  userId: number,
  why: Extract<TrustedDeviceEndReason, 'quitado' | 'factor_quitado' | 'sesiones_cerradas'>,
): Promise<number> {
  const removed = await db
    .update(trustedDevices)
    .set({ endedAt: sql`now()`, endReason: why })
    .where(and(eq(trustedDevices.userId, userId), isNull(trustedDevices.endedAt)))
    .returning({ id: trustedDevices.id });
  return removed.length;
}
