// Trusted devices (docs/decisions/0143-trusted-devices.md): a browser where the person proved a second factor and
// ticked 'No volver a pedir en este dispositivo durante 30 días'. Its cookie holds 32 random bytes; only their
// SHA-256 is kept, with the account's token version of that moment. A password sign-in from it skips the second step,
// and the session it starts satisfies the sign-in rules (ADMIN_SECOND_FACTOR) without counting as a second factor
// proved: `amr`, `acr` and an app's step-up never see it. A device dies after 30 days, with the token version (a
// password change, a suspension), when a factor is removed, with 'Cerrar otras sesiones', when the person removes
// it, and is not accepted while a company of the person forbids them (`permitirDispositivosConfiables`).
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, lte, or, type SQLWrapper, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import { companies, companyMembers, sessions, trustedDevices, users } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { secondFactorMessages as M } from './messages.js';

/** The cookie's name: HttpOnly, SameSite=Lax, path '/' as the provider's session cookies, Secure over https. */
export const trustedDeviceCookie = 'portal_dispositivo_confiable';
export const TRUSTED_DEVICE_DAYS = 30;
const trustedDeviceMs = TRUSTED_DEVICE_DAYS * 24 * 3_600_000;

export const trustedDevicesForbidden = () =>
  new HttpError(403, M.trustedDevicesForbidden, 'DISPOSITIVOS_NO_PERMITIDOS');
export const trustedDeviceNotFound = () => new HttpError(404, M.trustedDeviceNotFound, 'DISPOSITIVO_NO_ENCONTRADO');

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** A cookie value as this module makes them (43 base64url characters): anything else is not even looked up. */
const isDeviceToken = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);

/** None of the person's active companies forbids trusted devices (SQL, for one statement with the rest). */
const allowedFor = (userId: SQLWrapper) =>
  sql`not exists (select 1 from ${companyMembers} join ${companies} on ${companies.id} = ${companyMembers.companyId}
    where ${companyMembers.userId} = ${userId} and ${companyMembers.status} = 'active'
      and ${companies.status} = 'active' and not ${companies.allowTrustedDevices})`;

/** A device that still counts: not expired, trusted under the account's current token version, allowed. */
const live = () =>
  and(
    gt(trustedDevices.expiresAt, sql`now()`),
    sql`${trustedDevices.tokenVersion} = (select ${users.tokenVersion} from ${users} where ${users.id} = ${trustedDevices.userId})`,
    allowedFor(trustedDevices.userId),
  );

/** Whether the person may trust a device now: no company of theirs forbids it (the screens offer the checkbox). */
export async function trustedDevicesAllowed(db: Db, userId: number): Promise<boolean> {
  const [row] = await rowsOf<{ allowed: boolean }>(db, sql`select ${allowedFor(sql`${userId}::integer`)} as allowed`);
  return row?.allowed === true;
}

/**
 * Trusts the browser named `label` ('Chrome en Linux') for the account (its second factor was just proved): answers the cookie's value
 * and when it expires. The account's dead devices (expired, of an older token version) are swept on the way.
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
        or(lte(trustedDevices.expiresAt, sql`now()`), sql`${trustedDevices.tokenVersion} <> ${user.tokenVersion}`),
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

/**
 * The trusted device the cookie names, when it is one of `userId`'s and still counts: its id, its last use written.
 * Any other cookie (another account's, forged, expired, from before a password change, forbidden) answers undefined.
 */
export async function acceptTrustedDevice(db: Db, userId: number, token: unknown): Promise<number | undefined> {
  if (!isDeviceToken(token)) return undefined;
  const [row] = await db
    .update(trustedDevices)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(trustedDevices.tokenHash, digest(token)), eq(trustedDevices.userId, userId), live()))
    .returning({ id: trustedDevices.id });
  return row?.id;
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

/** Ends one of the account's trusted devices; 404 DISPOSITIVO_NO_ENCONTRADO when it has no such device. */
export async function removeTrustedDevice(db: Db, userId: number, id: number): Promise<void> {
  const removed = await db
    .delete(trustedDevices)
    .where(and(eq(trustedDevices.id, id), eq(trustedDevices.userId, userId)))
    .returning({ id: trustedDevices.id });
  if (removed.length === 0) throw trustedDeviceNotFound();
}

/** Ends every trusted device of the account (a factor removed, 'Cerrar otras sesiones', 'Quitar todos'). */
export async function removeTrustedDevices(db: Db, userId: number): Promise<number> {
  const removed = await db
    .delete(trustedDevices)
    .where(eq(trustedDevices.userId, userId))
    .returning({ id: trustedDevices.id });
  return removed.length;
}
