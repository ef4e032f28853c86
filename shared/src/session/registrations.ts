/**
 * The registration ids of this browser (docs/decisions/0006-registration-ids.md): `POST /auth/register` answers an
 * opaque id for the password and profile typed here, and the verification page sends it with the code, so the code
 * activates exactly that password and no other registration of the same email.
 *
 * Kept in localStorage, keyed by email, not in sessionStorage: the mail's link opens /verify-email in a new tab,
 * whose sessionStorage starts empty, and the id would be lost (the account would then come out with no password).
 * localStorage is shared by every tab of this browser at the portal's origin and by nobody else; the id is worth
 * nothing without the code from the mailbox. An entry is removed when its email is verified and forgotten after a
 * day, as the server forgets the registration.
 */
export const REGISTRATIONS_KEY = 'pending-registrations';
export const REGISTRATION_LIFETIME_MS = 24 * 60 * 60 * 1000;

interface Entry {
  id: string;
  savedAt: number;
}

const normalize = (email: string) => email.trim().toLowerCase();

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

function readAll(now: number): Record<string, Entry> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(storage()?.getItem(REGISTRATIONS_KEY) ?? '{}');
  } catch {
    parsed = {};
  }
  const live: Record<string, Entry> = {};
  if (parsed && typeof parsed === 'object') {
    for (const [email, entry] of Object.entries(parsed as Record<string, Partial<Entry>>)) {
      if (
        typeof entry?.id === 'string' &&
        typeof entry.savedAt === 'number' &&
        now - entry.savedAt < REGISTRATION_LIFETIME_MS
      ) {
        live[email] = { id: entry.id, savedAt: entry.savedAt };
      }
    }
  }
  return live;
}

function writeAll(entries: Record<string, Entry>): void {
  try {
    if (Object.keys(entries).length === 0) storage()?.removeItem(REGISTRATIONS_KEY);
    else storage()?.setItem(REGISTRATIONS_KEY, JSON.stringify(entries));
  } catch {
    // Storage full or disabled: the code still activates the account, without a password.
  }
}

/** Keeps the id of the registration made (or the pending password proven) in this browser for `email`. */
export function rememberRegistration(email: string, id: string, now: number = Date.now()): void {
  writeAll({ ...readAll(now), [normalize(email)]: { id, savedAt: now } });
}

/** The id this browser holds for `email`, if any. */
export function registrationIdFor(email: string, now: number = Date.now()): string | undefined {
  return readAll(now)[normalize(email)]?.id;
}

export function forgetRegistration(email: string, now: number = Date.now()): void {
  const entries = readAll(now);
  delete entries[normalize(email)];
  writeAll(entries);
}
