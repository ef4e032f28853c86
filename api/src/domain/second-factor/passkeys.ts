// Passkeys (WebAuthn; docs/decisions/0018-passkeys.md). Every check of a credential is @simplewebauthn/server's; this
// file keeps its options and results in the database: the ceremonies in flight (webauthn_challenges, single-use, 5
// minutes, stored under the SHA-256 of the random ceremony id handed to the browser) and the credentials (passkeys).
// The routes are in routes/auth/passkeys.ts.
import { createHash, randomBytes } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { and, asc, eq, gt, lt, type SQL, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { passkeys, type User, webauthnChallenges } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import type { Passkey } from '../../schemas/security.js';
import { secondFactorMessages } from './messages.js';

/** What the browser answered, as the body carries it: any JSON object, whose shape the library checks. */
type CredentialJson = object;
const fields = (value: CredentialJson) => value as Record<string, unknown>;

/** How long the browser has to answer the options (also the options' `timeout`). */
export const CEREMONY_TTL_MS = 5 * 60_000;

export type PasskeyView = Static<typeof Passkey>;
export type PasskeyRow = typeof passkeys.$inferSelect;
export type Ceremony = typeof webauthnChallenges.$inferSelect;
type RelyingParty = Config['webauthn'];

export const ceremonyExpired = (status: 400 | 401) =>
  new HttpError(status, secondFactorMessages.passkeyCeremonyExpired, 'PASSKEY_CEREMONY_EXPIRED');
export const passkeyNotVerified = () =>
  new HttpError(400, secondFactorMessages.passkeyNotVerified, 'PASSKEY_NOT_VERIFIED');
export const passkeySignInRefused = () =>
  new HttpError(401, secondFactorMessages.passkeySignInRefused, 'PASSKEY_NOT_VERIFIED');
export const passkeyExists = () => new HttpError(409, secondFactorMessages.passkeyExists, 'PASSKEY_EXISTS');
export const passkeyNotFound = () => new HttpError(404, secondFactorMessages.passkeyNotFound, 'PASSKEY_NOT_FOUND');

/**
 * The WebAuthn user handle of an account: the UTF-8 bytes of its numeric id. Stable (the same for every passkey of
 * the account, so the authenticator keeps one passkey per account and site), and no email or name in it: the handle
 * is stored by the authenticator and handed back at every sign-in, where it must match the passkey's owner.
 */
export const userHandle = (userId: number): Uint8Array<ArrayBuffer> => new TextEncoder().encode(String(userId));

const digest = (ceremonyId: string) => createHash('sha256').update(ceremonyId).digest('hex');

/** A credential id as the routes accept it (the `PasskeyId` pattern): the lookup never sees anything else. */
const credentialIdPattern = /^[A-Za-z0-9_-]{1,1400}$/;
const isCredentialId = (value: unknown): value is string =>
  typeof value === 'string' && credentialIdPattern.test(value);

const knownTransports = new Set<string>(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);
/** The transports the browser reported, keeping only names WebAuthn defines (they go back in the options as is). */
const cleanTransports = (value: unknown): string[] =>
  Array.isArray(value)
    ? [...new Set(value.filter((item): item is string => typeof item === 'string' && knownTransports.has(item)))]
    : [];

const view = (row: PasskeyRow): PasskeyView => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  backedUp: row.backedUp,
});

async function userPasskeys(db: Db, userId: number): Promise<PasskeyRow[]> {
  return db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

/** The account's passkeys as the 'Seguridad' tab lists them, oldest first. */
export async function listPasskeys(db: Db, userId: number): Promise<PasskeyView[]> {
  return (await userPasskeys(db, userId)).map(view);
}

/** Stores a new ceremony (expired ones of anyone are swept on the way); answers the random id handed out. */
async function startCeremony(
  db: Db,
  fields: Pick<Ceremony, 'purpose' | 'challenge' | 'userId' | 'sessionId'>,
): Promise<string> {
  const ceremonyId = randomBytes(32).toString('base64url');
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, sql`now()`));
  await db.insert(webauthnChallenges).values({
    id: digest(ceremonyId),
    ...fields,
    expiresAt: sql`now() + make_interval(secs => ${CEREMONY_TTL_MS / 1000})`,
  });
  return ceremonyId;
}

/** The options of `navigator.credentials.create()` for a new passkey of `user`, bound to the session that asked. */
export async function registrationOptions(
  db: Db,
  rp: RelyingParty,
  user: Pick<User, 'id' | 'email' | 'name' | 'lastName'>,
  sessionId: string,
) {
  const existing = await userPasskeys(db, user.id);
  const options = await generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpId,
    userName: user.email,
    userDisplayName: [user.name, user.lastName]
      .map((part) => part.trim())
      .filter(Boolean)
      .join(' '),
    userID: userHandle(user.id),
    // The authenticator refuses to make a second passkey for this account (the browser says it already has one).
    excludeCredentials: existing.map((row) => ({ id: row.id, transports: row.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    attestationType: 'none',
    timeout: CEREMONY_TTL_MS,
  });
  const ceremonyId = await startCeremony(db, {
    purpose: 'register',
    challenge: options.challenge,
    userId: user.id,
    sessionId,
  });
  return { ceremonyId, options };
}

/**
 * The options of `navigator.credentials.get()`. Without a user: any passkey of this site (discoverable credentials,
 * also the browser's autofill); with one (the second step of a password sign-in), that account's passkeys only.
 */
export async function authenticationOptions(db: Db, rp: RelyingParty, userId: number | null) {
  const allowed = userId === null ? [] : await userPasskeys(db, userId);
  const options = await generateAuthenticationOptions({
    rpID: rp.rpId,
    allowCredentials: allowed.map((row) => ({ id: row.id, transports: row.transports })),
    userVerification: 'required',
    timeout: CEREMONY_TTL_MS,
  });
  const ceremonyId = await startCeremony(db, {
    purpose: 'sign_in',
    challenge: options.challenge,
    userId,
    sessionId: null,
  });
  return { ceremonyId, options };
}

/**
 * Uses up a live ceremony of `purpose` that also meets `conditions`, in one statement: two answers to one ceremony
 * cannot both win.
 */
async function consumeCeremony(
  db: Db,
  ceremonyId: string,
  purpose: Ceremony['purpose'],
  ...conditions: SQL[]
): Promise<Ceremony | undefined> {
  const [row] = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.id, digest(ceremonyId)),
        eq(webauthnChallenges.purpose, purpose),
        gt(webauthnChallenges.expiresAt, sql`now()`),
        ...conditions,
      ),
    )
    .returning();
  return row;
}

/** Uses up a live registration ceremony of this user and session. */
export function consumeRegistration(db: Db, ceremonyId: string, userId: number, sessionId: string) {
  return consumeCeremony(
    db,
    ceremonyId,
    'register',
    eq(webauthnChallenges.userId, userId),
    eq(webauthnChallenges.sessionId, sessionId),
  );
}

/** Uses up a live sign-in ceremony. */
export function consumeSignIn(db: Db, ceremonyId: string) {
  return consumeCeremony(db, ceremonyId, 'sign_in');
}

/** What every answer to a ceremony must match: the ceremony's challenge, the portal's origins and relying party. */
const expectedOf = (rp: RelyingParty, challenge: string) => ({
  expectedChallenge: challenge,
  expectedOrigin: rp.origins,
  expectedRPID: rp.rpId,
});

/** The new credential, checked by @simplewebauthn/server against the ceremony's challenge; undefined if refused. */
export async function verifyRegistration(rp: RelyingParty, response: CredentialJson, challenge: string) {
  try {
    const result = await verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      ...expectedOf(rp, challenge),
      requireUserPresence: true,
      requireUserVerification: true,
    });
    if (!result.verified) return undefined;
    const info = result.registrationInfo;
    // The id the browser reported must be the one inside the signed authenticator data.
    if (!isCredentialId(info.credential.id) || info.credential.id !== fields(response).id) return undefined;
    return {
      id: info.credential.id,
      publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
      counter: info.credential.counter,
      transports: cleanTransports(info.credential.transports),
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
    };
  } catch {
    // Whatever the library found wrong (its English text is for logs, not for people): refused.
    return undefined;
  }
}

/**
 * Stores a verified credential for `userId`; undefined when that credential id is already registered (anyone's).
 * Notifies session-state: a second factor can make a company's seats count (docs/triggers.md).
 */
export async function insertPasskey(
  db: Db,
  userId: number,
  name: string,
  credential: NonNullable<Awaited<ReturnType<typeof verifyRegistration>>>,
): Promise<PasskeyView | undefined> {
  const [row] = await db
    .insert(passkeys)
    .values({ ...credential, userId, name })
    .onConflictDoNothing({ target: passkeys.id })
    .returning();
  return row && view(row);
}

/** The passkey a sign-in answer names (its `id`), when that id is well formed and registered. */
export async function findPasskeyOf(db: Db, response: CredentialJson): Promise<PasskeyRow | undefined> {
  const { id } = fields(response);
  if (!isCredentialId(id)) return undefined;
  const [row] = await db.select().from(passkeys).where(eq(passkeys.id, id));
  return row;
}

/** The user handle a sign-in answer carries (base64url), if any. */
export function responseUserHandle(response: CredentialJson): unknown {
  const inner = fields(response).response;
  return inner !== null && typeof inner === 'object' ? (inner as Record<string, unknown>).userHandle : undefined;
}

/** Whether a user handle given by the authenticator names `userId`: the base64url of `userHandle(userId)`. */
export const handleMatches = (handle: unknown, userId: number) =>
  handle === isoBase64URL.fromBuffer(userHandle(userId));

/**
 * The assertion checked by @simplewebauthn/server against the ceremony's challenge and the stored key, with user
 * verification required. The library refuses a signature counter that does not increase when either side is not
 * zero (a cloned authenticator). Answers the new counter and backup state, or undefined if refused.
 */
export async function verifyAssertion(
  rp: RelyingParty,
  response: CredentialJson,
  challenge: string,
  passkey: PasskeyRow,
) {
  try {
    const result = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      ...expectedOf(rp, challenge),
      credential: {
        id: passkey.id,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: true,
    });
    if (!result.verified) return undefined;
    return { counter: result.authenticationInfo.newCounter, backedUp: result.authenticationInfo.credentialBackedUp };
  } catch {
    return undefined;
  }
}

/**
 * Records a verified use: the new counter, backup state and time. One conditional statement, so two uses verified
 * against the same stored counter cannot both pass: only a counter above the stored one (or both still zero, for
 * authenticators that do not count) is accepted. Answers false when it was not.
 */
export async function recordPasskeyUse(
  db: Db,
  passkeyId: string,
  used: { counter: number; backedUp: boolean },
): Promise<boolean> {
  const updated = await db
    .update(passkeys)
    .set({ counter: used.counter, backedUp: used.backedUp, lastUsedAt: sql`now()` })
    .where(
      and(eq(passkeys.id, passkeyId), used.counter > 0 ? lt(passkeys.counter, used.counter) : eq(passkeys.counter, 0)),
    )
    .returning({ id: passkeys.id });
  return updated.length === 1;
}

/** Removes one passkey of `userId`; answers its name, or undefined when there was none. Notifies session-state. */
export async function removePasskey(db: Db, userId: number, passkeyId: string): Promise<string | undefined> {
  const [removed] = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId)))
    .returning({ name: passkeys.name });
  return removed?.name;
}
