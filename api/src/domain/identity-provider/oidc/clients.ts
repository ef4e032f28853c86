// The OpenID Connect clients administrators register (table oidc_clients, each the protocol connection of a connected
// app: connected-apps.ts holds its name, catalogue app and first party): their rules, their metadata as oidc-provider
// reads it, and their changes, each written to the audit log with the change. Every write to either table notifies
// session-state `*` (triggers `oidc_clients_memory_notify`, `connected_apps_memory_notify`, docs/triggers.md): each
// instance drops its clients.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { redirectUrisRequired } from '@portal/contracts/identity-provider/clients';
import { asc, eq, sql } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import type { AdapterPayload } from 'oidc-provider';
import type { Db } from '../../../db/client.js';
import {
  apps,
  connectedApps,
  oidcClients,
  oidcPayloads,
  type OidcClientRow,
  type OidcSubjectKind,
  oidcSubjectKinds,
} from '../../../db/schema.js';
import { HttpError } from '../../../lib/errors.js';
import { type AuditActor, recordAudit } from '../../audit/log.js';
import { identityProviderMessages as M } from '../messages.js';
import { type OidcScope, knownScopes, isOidcScope } from '../scopes.js';
import { registerApp, removeApp, selectClients, updateAppFacts } from '../connected-apps.js';
import { newSubjectSalt } from '../subjects.js';

/** A client as administrators see it (GET /admin/clientes-oidc): never its secret. */
export interface OidcClientView {
  clientId: string;
  /** Its connected app's registry id (its event subscriptions go under /admin/aplicaciones-conectadas/:idApp). */
  idAplicacion: number;
  nombre: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string | null;
  initiateLoginUri: string | null;
  publico: boolean;
  primeraParte: boolean;
  appId: number | null;
  scopes: OidcScope[];
  /** What the app's `sub` is (subjects.ts): the account id, the public id, or one of this app alone. */
  sujeto: OidcSubjectKind;
  /** May use the device authorization grant (RFC 8628). */
  dispositivos: boolean;
  creadoEn: string;
  actualizadoEn: string;
}

/** What an administrator sends to create or change a client (POST and PUT /admin/clientes-oidc). */
export interface OidcClientInput {
  nombre: string;
  /** Required, unless the client is public and signs in on devices only. */
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  backchannelLogoutUri?: string | null;
  initiateLoginUri?: string | null;
  publico?: boolean;
  primeraParte?: boolean;
  appId?: number | null;
  scopes?: string[];
  /** Create: 'opaco' when not named. Change: the client's own kind when not named. */
  sujeto?: string;
  dispositivos?: boolean;
}

/** The device authorization grant's type (RFC 8628 §3.4), in the client's grant_types when it may use it. */
export const deviceCodeGrantType = 'urn:ietf:params:oauth:grant-type:device_code';

/** The scopes a client gets when the administrator names none. */
export const defaultClientScopes: readonly OidcScope[] = ['openid', 'profile', 'email', 'offline_access'];
export const maxRedirectUris = 10;
const maxUriLength = 2000;

export function hashClientSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url');
}

/** Compares a presented secret with a stored hash in constant time (both sides hashed to the same length). */
export function clientSecretMatches(storedHash: string | undefined, presented: string): boolean {
  if (!storedHash) return false;
  const expected = Buffer.from(storedHash);
  const actual = Buffer.from(hashClientSecret(presented));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

const newSecret = () => randomBytes(32).toString('base64url');
// Hex, not base64url: an id that began with '-' would be taken for an option by the operator's command line.
const newClientId = () => randomBytes(16).toString('hex');

const loopbackHosts = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** A scheme of the custom kind native apps use (RFC 8252 §7.1): betopro, controlmax, com.example.app… */
const customScheme = /^[a-z][a-z0-9+.-]*:$/;
const forbiddenSchemes = new Set([
  'javascript:',
  'data:',
  'file:',
  'vbscript:',
  'blob:',
  'about:',
  'ftp:',
  'ws:',
  'wss:',
]);

type UriKind = 'web' | 'loopback' | 'custom';

/**
 * What a redirect-like URI is, or the Spanish reason it is refused: https anywhere; http only on a loopback host (a
 * desktop app's redirect, or a developer's machine); a custom scheme only for public clients. Never a fragment,
 * never user information, never a wildcard.
 */
function uriKind(field: string, raw: string, publico: boolean): UriKind {
  const fail = (why: string): never => {
    throw new HttpError(400, M.invalidUri(field, raw, why), 'INVALID_CLIENT_METADATA');
  };
  if (raw.length > maxUriLength) fail(M.uriTooLong(maxUriLength));
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail(M.notAbsoluteUri);
  }
  if (url.hash || raw.includes('#')) fail(M.uriWithFragment);
  if (url.username || url.password) fail(M.uriWithUserInfo);
  if (raw.includes('*')) fail(M.uriWithWildcard);
  if (url.protocol === 'https:') return 'web';
  if (url.protocol === 'http:') {
    if (loopbackHosts.has(url.hostname)) return 'loopback';
    return fail(M.httpOnlyLoopback);
  }
  if (!publico) return fail(M.customSchemeOnlyPublic);
  if (!customScheme.test(url.protocol) || forbiddenSchemes.has(url.protocol)) return fail(M.schemeNotAllowed);
  return 'custom';
}

interface ValidClient {
  name: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string | null;
  initiateLoginUri: string | null;
  publico: boolean;
  firstParty: boolean;
  appId: number | null;
  scopes: OidcScope[];
  sujeto: OidcSubjectKind | undefined;
  deviceFlow: boolean;
}

/** A list as typed: each entry trimmed, blank ones dropped, repeats kept once, in order. */
function trimmedUnique(list: readonly string[]): string[] {
  return [...new Set(list.map((item) => item.trim()).filter(Boolean))];
}

function uniqueList(field: string, list: readonly string[], publico: boolean, required: boolean): string[] {
  const trimmed = trimmedUnique(list);
  if (required && trimmed.length === 0) throw new HttpError(400, M.redirectUriRequired, 'INVALID_CLIENT_METADATA');
  if (trimmed.length > maxRedirectUris)
    throw new HttpError(400, M.tooManyUris(field, maxRedirectUris), 'INVALID_CLIENT_METADATA');
  for (const uri of trimmed) uriKind(field, uri, publico);
  return trimmed;
}

function singleUri(field: string, raw: string | null | undefined, httpsOnly = false): string | null {
  const value = raw?.trim();
  if (!value) return null;
  // Where the portal itself sends requests (back-channel) or the browser first (initiate login): web addresses only.
  const kind = uriKind(field, value, false);
  if (kind === 'custom')
    throw new HttpError(400, M.invalidUri(field, value, M.httpOnlyLoopback), 'INVALID_CLIENT_METADATA');
  if (httpsOnly && kind !== 'web')
    throw new HttpError(400, M.invalidUri(field, value, M.httpsOnly), 'INVALID_CLIENT_METADATA');
  return value;
}

/** The rules of a client, before anything is written: a Spanish 400 naming the field otherwise. */
export async function validateClient(db: Db, input: OidcClientInput): Promise<ValidClient> {
  const name = input.nombre.trim();
  if (!name) throw new HttpError(400, M.nameRequired, 'INVALID_CLIENT_METADATA');
  const publico = input.publico === true;
  const deviceFlow = input.dispositivos === true;
  const scopes = input.scopes === undefined ? [...defaultClientScopes] : trimmedUnique(input.scopes);
  const unknown = scopes.filter((scope) => !isOidcScope(scope));
  if (unknown.length > 0) throw new HttpError(400, M.unknownScopes(unknown), 'INVALID_CLIENT_METADATA');
  if (!scopes.includes('openid')) throw new HttpError(400, M.openidRequired, 'INVALID_CLIENT_METADATA');
  const appId = input.appId ?? null;
  if (scopes.includes('plan') && appId === null) throw new HttpError(400, M.planNeedsApp, 'INVALID_CLIENT_METADATA');
  if (input.sujeto !== undefined && !(oidcSubjectKinds as readonly string[]).includes(input.sujeto))
    throw new HttpError(400, M.unknownSubjectKind(input.sujeto), 'INVALID_CLIENT_METADATA');
  if (appId !== null) {
    const [app] = await db.select({ id: apps.id }).from(apps).where(eq(apps.id, appId));
    if (!app) throw new HttpError(400, M.unknownApp(appId), 'INVALID_CLIENT_METADATA');
  }
  return {
    name,
    redirectUris: uniqueList(
      'redirectUris',
      input.redirectUris ?? [],
      publico,
      redirectUrisRequired({ publico, dispositivos: deviceFlow }),
    ),
    postLogoutRedirectUris: uniqueList('postLogoutRedirectUris', input.postLogoutRedirectUris ?? [], publico, false),
    backchannelLogoutUri: singleUri('backchannelLogoutUri', input.backchannelLogoutUri),
    // OpenID Connect Registration §2: an initiate-login URI is https, even on loopback (the library refuses anything else).
    initiateLoginUri: singleUri('initiateLoginUri', input.initiateLoginUri, true),
    publico,
    firstParty: input.primeraParte === true,
    appId,
    scopes: knownScopes(scopes),
    sujeto: input.sujeto as OidcSubjectKind | undefined,
    deviceFlow,
  };
}

export function clientView(row: OidcClientRow): OidcClientView {
  return {
    clientId: row.clientId,
    idAplicacion: row.connectedAppId,
    nombre: row.name,
    redirectUris: row.redirectUris,
    postLogoutRedirectUris: row.postLogoutRedirectUris,
    backchannelLogoutUri: row.backchannelLogoutUri,
    initiateLoginUri: row.initiateLoginUri,
    publico: row.secretHash === null,
    primeraParte: row.firstParty,
    appId: row.appId,
    scopes: knownScopes(row.scopes),
    sujeto: row.sujeto,
    dispositivos: row.deviceFlow,
    creadoEn: row.createdAt.toISOString(),
    actualizadoEn: row.updatedAt.toISOString(),
  };
}

/** Custom client metadata the provider keeps beside the standard one (`extraClientMetadata`). */
export const portalClientMetadata = [
  'portal_first_party',
  'portal_app_id',
  'portal_subject',
  'portal_subject_salt',
] as const;

/**
 * The client as oidc-provider reads it: the code flow (and the device grant when allowed), refresh tokens, PKCE (required by the provider for all),
 * `client_secret_basic` with the stored hash for a confidential client (compared by `clientSecretMatches`), `none` for
 * a public one. A client with a custom-scheme or loopback redirect is a native app (RFC 8252: any loopback port).
 */
export function clientMetadata(row: OidcClientRow): AdapterPayload {
  const publico = row.secretHash === null;
  // A developer's single-page app on http://localhost is a web app with an exact port; 127.0.0.1 and [::1] are the
  // loopback addresses RFC 8252 §7.3 gives native apps.
  const native = row.redirectUris.some(
    (uri) => uriKind('redirectUris', uri, publico) === 'custom' || /^http:\/\/(127\.0\.0\.1|\[::1\])[:/]/.test(uri),
  );
  return {
    client_id: row.clientId,
    client_name: row.name,
    ...(publico
      ? { token_endpoint_auth_method: 'none' }
      : { client_secret: row.secretHash ?? undefined, token_endpoint_auth_method: 'client_secret_basic' }),
    application_type: native && publico ? 'native' : 'web',
    // A device-only client has no redirect address: it has no code flow either.
    grant_types: [
      ...(row.redirectUris.length > 0 ? ['authorization_code'] : []),
      'refresh_token',
      ...(row.deviceFlow ? [deviceCodeGrantType] : []),
    ],
    response_types: row.redirectUris.length > 0 ? ['code'] : [],
    redirect_uris: row.redirectUris,
    post_logout_redirect_uris: row.postLogoutRedirectUris,
    ...(row.backchannelLogoutUri
      ? { backchannel_logout_uri: row.backchannelLogoutUri, backchannel_logout_session_required: true }
      : {}),
    ...(row.initiateLoginUri ? { initiate_login_uri: row.initiateLoginUri } : {}),
    scope: row.scopes.join(' '),
    id_token_signed_response_alg: 'ES256',
    portal_first_party: row.firstParty,
    portal_app_id: row.appId,
    // How the provider makes the client's `sub` (subjects.ts). The salt is only ever read there: no answer of the
    // provider carries a client's metadata (dynamic registration is off).
    portal_subject: row.sujeto,
    ...(row.sujeto === 'por_cliente' && row.subjectSalt ? { portal_subject_salt: row.subjectSalt } : {}),
  };
}

/** The library's own check of a client's metadata, after the portal's rules (which name the field in Spanish). */
export function libraryCheck(
  provider: Provider,
  log?: { warn(details: object, message: string): void },
): (metadata: AdapterPayload) => Promise<void> {
  return async (metadata) => {
    try {
      await provider.Client.validate(metadata as Parameters<typeof provider.Client.validate>[0]);
    } catch (error) {
      log?.warn({ err: error }, 'client metadata refused by the provider');
      throw new HttpError(400, M.invalidClientMetadata, 'INVALID_CLIENT_METADATA');
    }
  };
}

export async function findClient(db: Db, clientId: string): Promise<OidcClientRow | undefined> {
  const [row] = await selectClients(db).where(eq(oidcClients.clientId, clientId));
  return row;
}

export async function listClients(db: Db): Promise<OidcClientView[]> {
  const rows = await selectClients(db).orderBy(asc(connectedApps.name), asc(oidcClients.id));
  return rows.map(clientView);
}

export const clientNotFound = () => new HttpError(404, M.clientNotFound, 'OIDC_CLIENT_NOT_FOUND');

/** A catalogue app's second OpenID Connect client (a unique violation) answers 409; anything else goes on. */
async function oneClientPerApp<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause ?? (error as { code?: string });
    if (cause.code === '23505') throw new HttpError(409, M.appAlreadyHasClient, 'OIDC_CLIENT_APP_TAKEN');
    throw error;
  }
}

/**
 * The subject columns of a client of `kind`: a client that becomes 'por_cliente' gets its salt then, and keeps it
 * ever after (also through other kinds), so its apps' identifiers come back the same if it returns to that kind.
 */
const subjectSettings = (kind: OidcSubjectKind, salt: string | null) => ({
  sujeto: kind,
  subjectSalt: salt ?? (kind === 'por_cliente' ? newSubjectSalt() : null),
});

/** What the registry holds of the client's app, from a valid client. */
const appFacts = (valid: ValidClient) => ({ name: valid.name, appId: valid.appId, firstParty: valid.firstParty });

/** The client's own columns an administrator sets, from a valid client (the secret and the subject apart). */
const settings = (valid: ValidClient) => ({
  redirectUris: valid.redirectUris,
  postLogoutRedirectUris: valid.postLogoutRedirectUris,
  backchannelLogoutUri: valid.backchannelLogoutUri,
  initiateLoginUri: valid.initiateLoginUri,
  scopes: valid.scopes,
  deviceFlow: valid.deviceFlow,
});

/** Creates a client; answers its id and, for a confidential one, its secret (shown this once). */
export async function createClient(
  db: Db,
  actor: AuditActor,
  input: OidcClientInput,
  check: (metadata: AdapterPayload) => Promise<void>,
): Promise<{ client: OidcClientView; clientSecret?: string }> {
  const valid = await validateClient(db, input);
  const secret = valid.publico ? undefined : newSecret();
  return oneClientPerApp(() =>
    db.transaction(async (tx) => {
      const facts = appFacts(valid);
      const [inserted] = await tx
        .insert(oidcClients)
        .values({
          clientId: newClientId(),
          connectedAppId: await registerApp(tx, 'oidc', facts),
          secretHash: secret ? hashClientSecret(secret) : null,
          ...settings(valid),
          ...subjectSettings(valid.sujeto ?? 'opaco', null),
        })
        .returning();
      if (!inserted) throw new Error('insert returned no row');
      const row = { ...inserted, ...facts };
      await check(clientMetadata(row));
      await recordAudit(tx, actor, [
        { action: 'oidc_client.create', target: { type: 'oidc_client', id: row.id }, details: auditDetails(row) },
      ]);
      return { client: clientView(row), ...(secret ? { clientSecret: secret } : {}) };
    }),
  );
}

/** Replaces a client's settings. Turning a public client confidential gives it a secret (answered this once). */
export async function updateClient(
  db: Db,
  actor: AuditActor,
  clientId: string,
  input: OidcClientInput,
  check: (metadata: AdapterPayload) => Promise<void>,
): Promise<{ client: OidcClientView; clientSecret?: string }> {
  // A change that does not name `dispositivos` (an older form) keeps what the client had.
  const deviceFlow = input.dispositivos ?? (await findClient(db, clientId))?.deviceFlow;
  const valid = await validateClient(db, { ...input, dispositivos: deviceFlow });
  return oneClientPerApp(() =>
    db.transaction(async (tx) => {
      const [before] = await selectClients(tx).where(eq(oidcClients.clientId, clientId)).for('update');
      if (!before) throw clientNotFound();
      const secret = !valid.publico && before.secretHash === null ? newSecret() : undefined;
      const secretHash = valid.publico ? null : secret ? hashClientSecret(secret) : before.secretHash;
      const facts = appFacts(valid);
      await updateAppFacts(tx, before.connectedAppId, facts);
      const [updated] = await tx
        .update(oidcClients)
        .set({
          secretHash,
          ...settings(valid),
          ...subjectSettings(valid.sujeto ?? before.sujeto, before.subjectSalt),
          updatedAt: sql`now()`,
        })
        .where(eq(oidcClients.id, before.id))
        .returning();
      if (!updated) throw clientNotFound();
      const row = { ...updated, ...facts };
      await check(clientMetadata(row));
      await recordAudit(tx, actor, [
        {
          action: 'oidc_client.update',
          target: { type: 'oidc_client', id: row.id },
          details: { ...auditDetails(row), fields: changedFields(before, row) },
        },
      ]);
      return { client: clientView(row), ...(secret ? { clientSecret: secret } : {}) };
    }),
  );
}

/** A new secret for a confidential client; the old one stops working at once. */
export async function rotateClientSecret(
  db: Db,
  actor: AuditActor,
  clientId: string,
): Promise<{ clientId: string; clientSecret: string }> {
  const secret = newSecret();
  return db.transaction(async (tx) => {
    const [before] = await selectClients(tx).where(eq(oidcClients.clientId, clientId));
    if (!before) throw clientNotFound();
    if (before.secretHash === null) throw new HttpError(409, M.publicClientHasNoSecret, 'OIDC_CLIENT_PUBLIC');
    await tx
      .update(oidcClients)
      .set({ secretHash: hashClientSecret(secret), updatedAt: sql`now()` })
      .where(eq(oidcClients.id, before.id));
    await recordAudit(tx, actor, [
      {
        action: 'oidc_client.rotate_secret',
        target: { type: 'oidc_client', id: before.id },
        details: auditDetails(before),
      },
    ]);
    return { clientId, clientSecret: secret };
  });
}

/** Deletes a client with every token, code and grant it holds (its apps' sessions simply stop working). */
export async function deleteClient(db: Db, actor: AuditActor, clientId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await selectClients(tx).where(eq(oidcClients.clientId, clientId)).for('update');
    if (!row) throw clientNotFound();
    // The app goes with its client: its event subscriptions too.
    await removeApp(tx, row.connectedAppId);
    await tx.delete(oidcPayloads).where(sql`${oidcPayloads.payload}->>'clientId' = ${clientId}`);
    await recordAudit(tx, actor, [
      { action: 'oidc_client.delete', target: { type: 'oidc_client', id: row.id }, details: auditDetails(row) },
    ]);
  });
}

function auditDetails(row: OidcClientRow): Record<string, unknown> {
  return { clientId: row.clientId, nombre: row.name, sujeto: row.sujeto };
}

const compared = [
  ['name', 'nombre'],
  ['redirectUris', 'redirectUris'],
  ['postLogoutRedirectUris', 'postLogoutRedirectUris'],
  ['backchannelLogoutUri', 'backchannelLogoutUri'],
  ['initiateLoginUri', 'initiateLoginUri'],
  ['firstParty', 'primeraParte'],
  ['appId', 'appId'],
  ['scopes', 'scopes'],
  ['sujeto', 'sujeto'],
  ['deviceFlow', 'dispositivos'],
  ['secretHash', 'publico'],
] as const;

function changedFields(before: OidcClientRow, after: OidcClientRow): string[] {
  return compared
    .filter(([column]) =>
      column === 'secretHash'
        ? (before.secretHash === null) !== (after.secretHash === null)
        : JSON.stringify(before[column]) !== JSON.stringify(after[column]),
    )
    .map(([, field]) => field);
}
