// Sessions (docs/decisions/0013-session-rows.md). `startSession` is THE one place where a portal sign-in becomes a
// token: every sign-in path (password, verification after registering, Google/Apple, a password change's fresh token)
// calls it. It writes the session row, queues the 'Nuevo inicio de sesión' mail for a device not seen before, and
// signs the token whose `jti` is the row's id. A second sign-in factor hooks in here, before the row is written.
import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import Bowser from 'bowser';
import type { Static } from 'typebox';
import type { Session } from '../../schemas/sessions.js';
import { HttpError } from '../../lib/errors.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Mailer } from '../mail/mailer.js';
import type { TokenService } from './verify.js';
import { oidcDeviceGrants, sessions, users, type User } from '../../db/schema.js';
import { newSignInMail, securityChangeMail, type SecurityChange } from '../mail/templates.js';
import { sessionMessages } from './messages.js';
import { refusalOnRecord } from '../audit/member-failures.js';
import { enforceCompanyRules, type SignInMethod } from '../sign-in-limits/company-rules.js';

/** Where a session was started from, as shown to people: 'Computadora', 'Chrome', 'Linux'… */
export interface ClientDescription {
  device: string;
  browser: string;
  os: string;
}

const deviceTypes: Record<string, string> = {
  desktop: 'Computadora',
  mobile: 'Móvil',
  tablet: 'Tableta',
  tv: 'Televisor',
  bot: 'Programa automático',
};

const unknownOs = 'Sistema desconocido';

/** The user agent read with bowser (MIT, maintained): unknown parts become 'desconocido', never empty. */
export function describeClient(userAgent: string | undefined): ClientDescription {
  const agent = (userAgent ?? '').slice(0, 1000);
  if (!agent.trim()) return { device: 'Dispositivo desconocido', browser: 'Navegador desconocido', os: unknownOs };
  const parsed = Bowser.parse(agent);
  return {
    device: deviceTypes[parsed.platform.type ?? ''] ?? 'Dispositivo desconocido',
    browser: parsed.browser.name?.slice(0, 100) || 'Navegador desconocido',
    os: parsed.os.name?.slice(0, 100) || unknownOs,
  };
}

/** 'Chrome en Linux': how a session is named in the lists and the mail. */
export function clientLabel(client: Pick<ClientDescription, 'browser' | 'os'>): string {
  return `${client.browser} en ${client.os}`;
}

/** 32 random bytes, base64url: the session id, which is the token's `jti` and cannot be guessed. */
/** The request a session starts from or a security change is made by: its user agent and client address. */
export interface ClientRequest {
  headers: { 'user-agent'?: string };
  ip: string;
}

/** What starting a session uses (the app passes itself). */
export interface SessionDeps {
  db: Db;
  config: Pick<Config, 'tokenTtlSeconds' | 'portalUrl'>;
  mailer: Pick<Mailer, 'enqueue' | 'wake'>;
  tokens: Pick<TokenService, 'sign'>;
}

export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Starts a portal session for `user` signing in through `request`: writes the session row (device, browser and system
 * from the user agent, the client address as the server reads it under the configured trust-proxy), queues the
 * 'Nuevo inicio de sesión' mail when no earlier session of this user had the same device, browser and system (the
 * first session an account ever has sends none: the person has just registered), and answers the signed token.
 */
export async function startSession(
  services: SessionDeps,
  user: Pick<User, 'id' | 'role' | 'tokenVersion' | 'email' | 'name'>,
  request: ClientRequest,
  /**
   * `method`: how the person signed in, which the rules of their companies may refuse (403 RED_NO_PERMITIDA,
   * METODO_NO_PERMITIDO, domain/sign-in-limits/company-rules.ts) and the ID tokens of the apps name (`amr`);
   * `ssoCompanyId` for 'empresa': whose provider it was (a company's 'empresa' is its own, decision 0147).
   * `secondFactor` when this sign-in proved one (TOTP, recovery code or passkey); `trustedDeviceId` when a trusted
   * device let it skip the second step (docs/decisions/0143-trusted-devices.md: the sign-in rules accept it, it proves
   * no factor).
   */
  options: { method: SignInMethod; ssoCompanyId?: number | null; secondFactor?: boolean; trustedDeviceId?: number },
): Promise<string> {
  const ssoCompanyId = options.ssoCompanyId ?? null;
  await enforceCompanyRules(services.db, user.id, { method: options.method, ssoCompanyId }, request.ip).catch((error) =>
    refusalOnRecord(services.db, user.id, error, { address: request.ip, metodo: options.method }),
  );
  const client = describeClient(request.headers['user-agent']);
  // The wall clock, as the token service checks expiry against it.
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const id = newSessionId();
  const expiresAt = new Date(now.getTime() + services.config.tokenTtlSeconds * 1000);
  const mailed = await services.db.transaction(async (tx) => {
    const [seen] = await tx
      .select({
        any: sql<boolean>`true`,
        same: sql<boolean>`bool_or(${sessions.device} = ${client.device} and ${sessions.browser} = ${client.browser} and ${sessions.os} = ${client.os})`,
      })
      .from(sessions)
      .where(eq(sessions.userId, user.id))
      .groupBy(sessions.userId);
    await tx.insert(sessions).values({
      id,
      userId: user.id,
      ...client,
      address: request.ip,
      tokenVersion: user.tokenVersion,
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
      secondFactor: options.secondFactor === true,
      method: options.method,
      ssoCompanyId,
      trustedDeviceId: options.trustedDeviceId ?? null,
    });
    if (!seen || seen.same) return false;
    await services.mailer.enqueue(tx, {
      to: user.email,
      ...newSignInMail({
        name: user.name,
        device: client.device,
        browser: clientLabel(client),
        address: request.ip,
        at: now,
        portalUrl: services.config.portalUrl,
      }),
    });
    return true;
  });
  if (mailed) services.mailer.wake();
  return services.tokens.sign(user, { id, issuedAt: now, expiresAt });
}

/** What a device's portal session is started with (identity-provider/oidc/device.ts, when a person approves it). */
export interface DeviceSessionStart {
  userId: number;
  /** The app the device signs in to: the session's name in the lists ('Panel de planta en Linux'). */
  appName: string;
  /** The device's user agent, as it asked for its code. */
  userAgent: string | undefined;
  /** The device's address, as it asked for its code: the company rules' networks judge it. */
  address: string;
  /** The approving session's method (and company provider) and second factor: the device signed in as it did. */
  method: string | null;
  ssoCompanyId: number | null;
  secondFactor: boolean;
  expiresAt: Date;
}

/**
 * Starts the portal session of a device a person approved (docs/decisions/0116-device-sign-ins-are-sessions.md): a
 * session row like a browser's, listed and ended like one, under the same company rules, but with no portal token of
 * its own (nothing can sign into the portal with it); the device's grant lives and dies with it. Answers its id.
 */
export async function startDeviceSession(db: Db, start: DeviceSessionStart): Promise<string> {
  const id = newSessionId();
  const client = describeClient(start.userAgent);
  await db.insert(sessions).values({
    id,
    userId: start.userId,
    device: client.device,
    browser: start.appName.slice(0, 100),
    os: client.os,
    address: start.address,
    tokenVersion: sql`(select ${users.tokenVersion} from ${users} where ${users.id} = ${start.userId})`,
    expiresAt: start.expiresAt,
    secondFactor: start.secondFactor,
    method: start.method,
    ssoCompanyId: start.ssoCompanyId,
  });
  return id;
}

/**
 * Queues 'Cambio en la seguridad de tu cuenta' for `user` in `db` (the transaction of the change, so both or neither
 * happen), naming the device, browser and address of the request that made it. The caller wakes the mailer after
 * the commit.
 */
export async function queueSecurityChangeMail(
  services: Pick<SessionDeps, 'config' | 'mailer'>,
  db: Db,
  request: ClientRequest,
  user: Pick<User, 'email' | 'name'>,
  change: SecurityChange,
): Promise<void> {
  const client = describeClient(request.headers['user-agent']);
  await services.mailer.enqueue(db, {
    to: user.email,
    ...securityChangeMail({
      name: user.name,
      change,
      device: client.device,
      browser: clientLabel(client),
      address: request.ip,
      at: new Date(),
      portalUrl: services.config.portalUrl,
    }),
  });
}

/** A session as the API shows it (GET /auth/sessions, GET /admin/users/{id}/sessions): the `Session` schema. */
export type SessionView = Static<typeof Session>;

export async function listSessions(db: Db, userId: number, currentId?: string): Promise<SessionView[]> {
  const rows = await db
    .select({
      id: sessions.id,
      device: sessions.device,
      browser: sessions.browser,
      os: sessions.os,
      address: sessions.address,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      deviceGrant: oidcDeviceGrants.grantId,
    })
    .from(sessions)
    // A session from before the account's last token version bump is over even if its row was never ended.
    .innerJoin(users, and(eq(users.id, sessions.userId), eq(users.tokenVersion, sessions.tokenVersion)))
    .leftJoin(oidcDeviceGrants, eq(oidcDeviceGrants.portalSessionId, sessions.id))
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt), gt(sessions.expiresAt, sql`now()`)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  return rows.map((row) => ({
    id: row.id,
    device: row.device,
    browser: row.browser,
    os: row.os,
    // A device's session is named by its app, and by its system when its user agent says one.
    label: row.deviceGrant !== null && row.os === unknownOs ? row.browser : clientLabel(row),
    address: row.address,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    current: row.id === currentId,
    // A device's session names its app where a browser's names the browser.
    app: row.deviceGrant === null ? null : row.browser,
  }));
}

/**
 * Ends one open session of `userId`; answers the ended row, or undefined when that user has no such open session.
 * Notifies session-state and ends the apps' sessions signed in with it, queueing their back-channel logouts
 * (triggers on sessions, docs/triggers.md).
 */
export async function endSession(db: Db, userId: number, sessionId: string) {
  const [ended] = await db
    .update(sessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.endedAt)))
    .returning();
  return ended;
}

/**
 * Ends every open session of `userId` except `keepId`; answers how many. Each notifies session-state and ends the
 * apps' sessions signed in with it, as `endSession` does.
 */
export async function endOtherSessions(db: Db, userId: number, keepId: string): Promise<number> {
  const ended = await db
    .update(sessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepId), isNull(sessions.endedAt)))
    .returning({ id: sessions.id });
  return ended.length;
}

/**
 * The session proved a second factor after it started (it set one up: confirming a TOTP code or adding a passkey
 * shows the person holds it), so under ADMIN_SECOND_FACTOR=required an administrator goes on without signing in
 * again.
 */
export async function markSessionSecondFactor(db: Db, sessionId: string): Promise<void> {
  await db.update(sessions).set({ secondFactor: true }).where(eq(sessions.id, sessionId));
}

export const sessionNotFound = () => new HttpError(404, sessionMessages.sessionNotFound, 'SESSION_NOT_FOUND');
