// Sign-in on a device (RFC 8628, docs/decisions/0086-device-sign-in.md): the device shows a code, a signed-in person
// types it at the portal's /dispositivo, sees which app asks, for what and from where, and allows or refuses. The
// library's own pages (code_verification) are never mounted: these calls finish its DeviceCode the way its
// `deviceVerificationResponse` does, and the device's polling of the token endpoint stays the library's.
import { and, eq, sql } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import type { Client } from 'oidc-provider';
import type { Db } from '../../../db/client.js';
import { oidcDeviceGrants, oidcPayloads } from '../../../db/schema.js';
import { HttpError } from '../../../lib/errors.js';
import type { Clock } from '../../clock.js';
import type { CounterStore, TakenSlot } from '../../sign-in-limits/counters.js';
import { wrongCodesLockedError } from '../../sign-in-limits/limits.js';
import { startDeviceSession } from '../../sessions/sessions.js';
import { secondFactorAsked } from '../authentication-methods.js';
import { accountIdOf } from '../claims.js';
import { portalFacts } from '../client-facts.js';
import { requestedScopes } from '../consents.js';
import {
  type ContinuationView,
  continueSignIn,
  describeContinuation,
  type PortalSignIn,
  type SignInAsk,
} from '../continuation.js';
import { oidcLifetimes } from './lifetimes.js';
import { personRefused } from './protocol-errors.js';
import { describeScopes } from '../scopes.js';

/**
 * The user code as the device shows it: 8 consonants (no vowels, so no words, and none of 0/O, 1/I to confuse) in
 * two groups. 20^8 codes, of which a handful are live at once: guessing one takes billions of tries.
 */
export const userCodeCharset = 'BCDFGHJKLMNPQRSTVWXZ';
export const userCodeMask = '****-****';
const userCodeLength = userCodeMask.split('*').length - 1;

/** Wrong codes a person may type in a day, over every device: room for typos, none for guessing. */
export const maxWrongDeviceCodesPerPerson = 20;
/** Wrong codes from one address in a day: a shared office or plant address has several people typing. */
export const maxWrongDeviceCodesPerAddress = 60;
const wrongCodeWindowMs = 24 * 60 * 60_000;

/** The seconds a device waits between polls (RFC 8628 §3.2 `interval`, its default): sooner answers `slow_down`. */
export const devicePollIntervalSeconds = 5;

export const deviceMessages = {
  malformed:
    'El código tiene 8 letras sin vocales, como BCDF-GHJK: no lleva A, E, I, O, U ni números. Revísalo en la pantalla del dispositivo.',
  notFound: 'Código incorrecto. Revisa el código que muestra el dispositivo.',
  expired: 'El código expiró. Pide uno nuevo en el dispositivo.',
  used: 'Este código ya se usó o se rechazó. Pide uno nuevo en el dispositivo.',
} as const;

const malformed = () => new HttpError(400, deviceMessages.malformed, 'DEVICE_CODE_MALFORMED');
const notFound = () => new HttpError(404, deviceMessages.notFound, 'DEVICE_CODE_NOT_FOUND');
const expired = () => new HttpError(410, deviceMessages.expired, 'DEVICE_CODE_EXPIRED');
const used = () => new HttpError(409, deviceMessages.used, 'DEVICE_CODE_USED');

/**
 * A typed code as the library stores it (upper case, nothing but its letters), or undefined when it cannot be one:
 * lower case and a missing or extra dash or space are fine, a vowel or a digit is a typo, not a guess.
 */
export function normalizeUserCode(typed: string): string | undefined {
  const letters = typed.toUpperCase().replace(/[\s-]/g, '');
  if (letters.length !== userCodeLength) return undefined;
  return [...letters].every((char) => userCodeCharset.includes(char)) ? letters : undefined;
}

/** The code as the device shows it (BCDF-GHJK). */
export function displayUserCode(normalized: string): string {
  const chars = [...normalized];
  return [...userCodeMask].map((part) => (part === '*' ? chars.shift() : part)).join('');
}

/** What the library records of the device as it asks (its `deviceInfo`): the address it asked from. */
export type DeviceInfo = {
  ip: string;
  ua?: string;
};

/** What /dispositivo shows before the person answers. */
export interface DeviceRequestView {
  codigo: string;
  cliente: { id: string; nombre: string; primeraParte: boolean };
  permisos: { scope: string; descripcion: string }[];
  dispositivo: { ip: string; iniciadoEn: string };
  expiraEn: string;
  /** The app asked for a second factor this session has not proved: how the person can prove one now. */
  segundoFactor: ContinuationView['segundoFactor'];
}

export interface DeviceDeps {
  db: Db;
  provider: Provider;
  counters: CounterStore;
  clock: Clock;
}

/** Who types the code, and from where: the wrong codes are counted for both; the continuation judges the session. */
export type CodeTypist = PortalSignIn;

type DeviceCode = InstanceType<Provider['DeviceCode']>;

/**
 * Takes one wrong-code slot of the person and one of the address before the code is looked at, so a burst of guesses
 * gets no more lookups than the same guesses one after another; `giveBack` returns them when the code existed.
 */
async function reserveLookup(deps: DeviceDeps, typist: CodeTypist) {
  const personKey = `device-code-wrong:user:${typist.userId}`;
  const addressKey = `device-code-wrong:ip:${typist.address}`;
  const person = await deps.counters.take(personKey, wrongCodeWindowMs, { threshold: maxWrongDeviceCodesPerPerson });
  if (!person.taken) throw wrongCodesLockedError(deps.clock() + person.waitMs, deps.clock());
  const address = await deps.counters.take(addressKey, wrongCodeWindowMs, {
    threshold: maxWrongDeviceCodesPerAddress,
  });
  if (!address.taken) {
    await deps.counters.giveBack(personKey, person);
    throw wrongCodesLockedError(deps.clock() + address.waitMs, deps.clock());
  }
  const slots: [string, TakenSlot][] = [
    [personKey, person],
    [addressKey, address],
  ];
  return async () => {
    for (const [key, slot] of slots) await deps.counters.giveBack(key, slot);
  };
}

/**
 * The device code behind a typed code, still waiting for an answer; a Spanish error otherwise. A code that does not
 * exist keeps its wrong-code slots; one that does (even expired or used) gives them back: it was no guess.
 */
async function waitingCode(deps: DeviceDeps, typist: CodeTypist, typed: string): Promise<DeviceCode> {
  const normalized = normalizeUserCode(typed);
  if (!normalized) throw malformed();
  const giveBack = await reserveLookup(deps, typist);
  const code = await deps.provider.DeviceCode.findByUserCode(normalized, { ignoreExpiration: true });
  if (!code) throw notFound();
  await giveBack();
  if (code.isExpired) throw expired();
  if (code.error || code.accountId || code.inFlight) throw used();
  return code;
}

async function clientOf(provider: Provider, code: DeviceCode): Promise<Client> {
  const client = await provider.Client.find(String(code.clientId));
  // The client was deleted since the device asked: its code is as good as gone.
  if (!client) throw notFound();
  return client;
}

/** What the device's request asks of the continuation, from the device's own address too, and step-up. */
function askOf(client: Client, code: DeviceCode): SignInAsk {
  const params = (code.params ?? {}) as { scope?: unknown; acr_values?: unknown; claims?: unknown };
  const info = (code.deviceInfo ?? {}) as Partial<DeviceInfo>;
  return {
    app: {
      id: client.clientId,
      nombre: String(client.clientName ?? client.clientId),
      primeraParte: portalFacts(client).firstParty,
      consent: { protocol: 'oidc', clientId: client.clientId },
    },
    permisos: describeScopes(requestedScopes(client, params.scope)),
    ...(info.ip ? { alsoFrom: info.ip } : {}),
    secondFactor: secondFactorAsked(params),
  };
}

/**
 * Which app asks, for what, from which address and since when (POST /oidc/dispositivo/consultar); a request the
 * person's company rules refuse (their session's, or the device's address) is refused already here.
 */
export async function describeDeviceRequest(
  deps: DeviceDeps,
  typist: CodeTypist,
  typed: string,
): Promise<DeviceRequestView> {
  const code = await waitingCode(deps, typist, typed);
  const client = await clientOf(deps.provider, code);
  const info = (code.deviceInfo ?? {}) as Partial<DeviceInfo>;
  const { cliente, permisos, segundoFactor } = await describeContinuation(deps.db, askOf(client, code), typist);
  return {
    codigo: displayUserCode(String(code.userCode)),
    cliente,
    permisos,
    dispositivo: { ip: info.ip ?? '', iniciadoEn: new Date((code.iat ?? 0) * 1000).toISOString() },
    expiraEn: new Date((code.exp ?? 0) * 1000).toISOString(),
    segundoFactor,
  };
}

/**
 * Claims the code for this answer in one conditional update: of two answers racing (two tabs, 'Permitir' and
 * 'Rechazar'), one finds it waiting and the other is told it was used.
 */
async function claim(db: Db, code: DeviceCode): Promise<void> {
  const claimed = await db
    .update(oidcPayloads)
    .set({ payload: sql`${oidcPayloads.payload} || '{"inFlight": true}'::jsonb` })
    .where(
      and(
        eq(oidcPayloads.kind, 'DeviceCode'),
        eq(oidcPayloads.id, String(code.jti)),
        sql`not (${oidcPayloads.payload} ?| array['inFlight', 'accountId', 'error'])`,
        sql`${oidcPayloads.expiresAt} > now()`,
      ),
    )
    .returning({ id: oidcPayloads.id });
  if (claimed.length === 0) throw used();
}

/**
 * The person's answer (POST /oidc/dispositivo/confirmar). Refused: the device is told `access_denied`, or
 * `unmet_authentication_requirements` when the person left the second factor the app asked for (`stepUp`), as the
 * code flow tells it (interactions.ts `refuseInteraction`). Allowed, once
 * the continuation lets it through: a grant of the scopes asked (the consent remembered for a third-party app, so
 * /perfil lists it and can take it back), the device's own portal session (sessions.ts `startDeviceSession`: its
 * address the device's, its method and second factor the approving session's, under the person's company rules),
 * and the code given the account and how it signed in (`amr`, `acr`), as the library's own verification does; the
 * device's next poll gets the tokens.
 */
export async function answerDeviceRequest(
  deps: DeviceDeps,
  typist: CodeTypist,
  typed: string,
  allow: boolean,
  stepUp = false,
): Promise<void> {
  const { db, provider } = deps;
  const code = await waitingCode(deps, typist, typed);
  const client = await clientOf(provider, code);
  const ask = askOf(client, code);
  const passed = allow ? await continueSignIn(db, ask, typist, true) : undefined;
  await claim(db, code);
  code.inFlight = true;
  if (!passed) {
    const { error, description } = personRefused(stepUp && ask.secondFactor === true);
    Object.assign(code, { error, errorDescription: description });
    await code.save();
    return;
  }
  const accountId = accountIdOf(typist.userId);
  const grant = new provider.Grant({ accountId, clientId: client.clientId });
  grant.addOIDCScope(passed.scopes.join(' '));
  const grantId = await grant.save();
  const info = (code.deviceInfo ?? {}) as Partial<DeviceInfo>;
  await db.transaction(async (tx) => {
    const sessionId = await startDeviceSession(tx, {
      userId: typist.userId,
      appName: String(client.clientName ?? client.clientId),
      userAgent: info.ua,
      address: info.ip ?? typist.address,
      method: typist.method,
      ssoCompanyId: typist.ssoCompanyId,
      secondFactor: typist.secondFactor,
      expiresAt: new Date(Date.now() + oidcLifetimes.refreshToken * 1000),
    });
    await tx
      .insert(oidcDeviceGrants)
      .values({ grantId, portalSessionId: sessionId, clientId: client.clientId, userId: typist.userId });
  });
  Object.assign(code, {
    accountId,
    authTime: passed.authTime,
    amr: passed.amr,
    acr: passed.acr,
    grantId,
    scope: passed.scopes.join(' '),
  });
  await code.save();
}
