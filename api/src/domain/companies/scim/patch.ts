// A person as the directory writes them (POST and PUT bodies, PatchOp operations of RFC 7644 §3.5.2), applied to a
// draft by hand: the portal keeps userName, externalId, the name, displayName and active; the emails stand for the
// userName (the portal's email of the person). The User attributes it does not keep (title, phoneNumbers, addresses,
// the enterprise extension…) are accepted and ignored, so a directory's default attribute mapping syncs. A PatchOp
// path that is none of them is a 400 invalidPath; an attribute of a POST or PUT body that is none of them is ignored,
// as Microsoft's reference server does (decision 0109).
import { ScimError, scimMessages as M, shown } from './errors.js';
import { scimBoolean, workEmailPath } from './filter.js';

/** What the portal keeps of a directory's person. */
export interface UserDraft {
  userName: string;
  externalId: string | null;
  givenName: string;
  familyName: string;
  displayName: string;
  active: boolean;
}

export const blankDraft = (): UserDraft => ({
  userName: '',
  externalId: null,
  givenName: '',
  familyName: '',
  displayName: '',
  active: true,
});

const coreUserUrn = 'urn:ietf:params:scim:schemas:core:2.0:user';
const extensionUrn = 'urn:ietf:params:scim:schemas:extension:';

/** Attributes of RFC 7643's User the portal does not keep: written by directories, ignored here. */
const ignoredAttributes = new Set([
  'nickname',
  'profileurl',
  'title',
  'usertype',
  'preferredlanguage',
  'locale',
  'timezone',
  'password',
  'phonenumbers',
  'ims',
  'photos',
  'addresses',
  'groups',
  'entitlements',
  'roles',
  'x509certificates',
  'schemas',
]);
const ignoredNameParts = new Set(['formatted', 'middlename', 'honorificprefix', 'honorificsuffix']);
const readOnlyAttributes = new Set(['id', 'meta']);

const limits = { userName: 254, externalId: 255, displayName: 200, givenName: 100, familyName: 100 } as const;

function text(attribute: keyof typeof limits, value: unknown): string {
  if (typeof value !== 'string') throw new ScimError(400, M.notString(attribute), 'invalidValue');
  const trimmed = value.trim();
  if (trimmed.length > limits[attribute])
    throw new ScimError(400, M.tooLong(attribute, limits[attribute]), 'invalidValue');
  return trimmed;
}

function bool(attribute: string, value: unknown): boolean {
  const parsed = scimBoolean(value);
  if (parsed === undefined) throw new ScimError(400, M.notBoolean(attribute), 'invalidValue');
  return parsed;
}

/** The work email of an `emails` value: the one of type work, else the primary one, else the first. */
function emailOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const list = Array.isArray(value) ? value : [value];
  const entries = list.filter(
    (entry): entry is { value?: unknown; type?: unknown; primary?: unknown } =>
      typeof entry === 'object' && entry !== null,
  );
  const chosen =
    entries.find((entry) => typeof entry.type === 'string' && entry.type.toLowerCase() === 'work') ??
    entries.find((entry) => scimBoolean(entry.primary) === true) ??
    entries[0];
  if (chosen === undefined) return undefined;
  if (typeof chosen.value !== 'string') throw new ScimError(400, M.notString('emails.value'), 'invalidValue');
  return chosen.value;
}

type Operation = 'add' | 'replace' | 'remove';

/** The path without the core schema's URN, lower-cased. */
function normalPath(path: string): string {
  const lower = path.trim().toLowerCase();
  return lower.startsWith(`${coreUserUrn}:`) ? lower.slice(coreUserUrn.length + 1) : lower;
}

/** What an attribute the portal does not know meets: a PatchOp's path is refused, a resource body's ignored. */
type Unknown = 'refuse' | 'ignore';

/** Applies one attribute (a path and its value) to the draft. */
function applyPath(
  draft: UserDraft,
  op: Operation,
  rawPath: string,
  value: unknown,
  unknown: Unknown = 'refuse',
): void {
  const path = normalPath(rawPath);
  const root = path.split(/[.[]/, 1)[0] ?? '';
  if (path.startsWith(extensionUrn) || ignoredAttributes.has(root)) return;
  if (readOnlyAttributes.has(root)) throw new ScimError(400, M.readOnly(rawPath), 'mutability');
  const remove = op === 'remove';
  switch (path) {
    case 'username':
      if (remove) throw new ScimError(400, M.patchRemoveRequired('userName'), 'mutability');
      draft.userName = text('userName', value);
      return;
    case 'externalid':
      draft.externalId = remove || value === null ? null : text('externalId', value) || null;
      return;
    case 'displayname':
      draft.displayName = remove || value === null ? '' : text('displayName', value);
      return;
    case 'name.givenname':
      draft.givenName = remove || value === null ? '' : text('givenName', value);
      return;
    case 'name.familyname':
      draft.familyName = remove || value === null ? '' : text('familyName', value);
      return;
    case 'active':
      if (remove) throw new ScimError(400, M.patchRemoveRequired('active'), 'mutability');
      draft.active = bool('active', value);
      return;
    case 'name':
      if (remove || value === null) {
        draft.givenName = '';
        draft.familyName = '';
        return;
      }
      if (typeof value !== 'object' || Array.isArray(value))
        throw new ScimError(400, M.patchValueObject, 'invalidValue');
      for (const [key, part] of Object.entries(value)) applyPath(draft, op, `name.${key}`, part, unknown);
      return;
    case 'emails':
    case 'emails.value':
      // The emails are the userName's: writing them writes it, taking them away leaves it.
      if (!remove) {
        const email = emailOf(value);
        if (email !== undefined) draft.userName = text('userName', email);
      }
      return;
  }
  if (workEmailPath.test(path)) {
    if (!remove) draft.userName = text('userName', value);
    return;
  }
  if (path.startsWith('name.') && ignoredNameParts.has(path.slice(5))) return;
  if (unknown === 'ignore') return;
  throw new ScimError(400, M.patchPath(shown(rawPath)), 'invalidPath');
}

/** Applies an object of attributes (a POST or PUT body, or a PatchOp value without path). */
function applyObject(
  draft: UserDraft,
  op: Operation,
  value: Record<string, unknown>,
  unknown: Unknown = 'refuse',
): void {
  const keys = Object.keys(value);
  // Both given: userName is the person's email, the emails only repeat it.
  const hasUserName = keys.some((key) => normalPath(key) === 'username');
  for (const key of keys) {
    const path = normalPath(key);
    const part = value[key];
    if (path === coreUserUrn && typeof part === 'object' && part !== null && !Array.isArray(part)) {
      applyObject(draft, op, part as Record<string, unknown>, unknown);
    } else if (readOnlyAttributes.has(path)) {
      // A resource sent back whole (Okta's PUT) carries its id and meta: nothing to write.
    } else if (hasUserName && (path === 'emails' || path === 'emails.value' || workEmailPath.test(path))) {
      // Ignored: see above.
    } else {
      applyPath(draft, op, key, part, unknown);
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The draft of a POST or PUT body: what is not given is empty (active: true). */
export function draftFromResource(body: unknown): UserDraft {
  if (!isObject(body)) throw new ScimError(400, M.bodyNotObject, 'invalidSyntax');
  const draft = blankDraft();
  applyObject(draft, 'replace', body, 'ignore');
  if (!draft.userName) throw new ScimError(400, M.userNameRequired, 'invalidValue');
  return draft;
}

export const maxOperations = 100;

/** One checked operation of a PatchOp body: its op in lower case, its path when it has one, its value. */
export type PatchOperation =
  | { op: 'add' | 'replace' | 'remove'; path: string; value: unknown }
  | { op: 'add' | 'replace'; path: undefined; value: Record<string, unknown> };

/**
 * The operations of a PatchOp body (RFC 7644 §3.5.2), each checked the same way for every resource: an object, a known
 * op in any case, a path that is a non-empty string when present, a value unless it removes, an object value without
 * a path. `pathMessage` words a refused path for the resource (a User's or a Group's attributes).
 */
export function patchOperations(body: unknown, pathMessage: (path: string) => string): PatchOperation[] {
  if (!isObject(body)) throw new ScimError(400, M.bodyNotObject, 'invalidSyntax');
  const operations = Object.entries(body).find(([key]) => key.toLowerCase() === 'operations')?.[1];
  if (!Array.isArray(operations) || operations.length === 0) {
    throw new ScimError(400, M.patchOperations, 'invalidSyntax');
  }
  if (operations.length > maxOperations) throw new ScimError(400, M.patchTooMany, 'tooMany');
  return operations.map((operation): PatchOperation => {
    if (!isObject(operation)) throw new ScimError(400, M.patchOperations, 'invalidSyntax');
    const op = typeof operation.op === 'string' ? operation.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove') {
      throw new ScimError(400, M.patchOp(shown(operation.op ?? '')), 'invalidSyntax');
    }
    const path = operation.path;
    if (path !== undefined && (typeof path !== 'string' || !path.trim())) {
      throw new ScimError(400, pathMessage(shown(path)), 'invalidPath');
    }
    if (op !== 'remove' && !('value' in operation)) throw new ScimError(400, M.patchValue, 'invalidValue');
    if (path !== undefined) return { op, path, value: operation.value };
    if (op === 'remove') throw new ScimError(400, pathMessage(shown('')), 'noTarget');
    if (!isObject(operation.value)) throw new ScimError(400, M.patchValueObject, 'invalidValue');
    return { op, path: undefined, value: operation.value };
  });
}

/** The draft after a PatchOp body's operations, in order; the current one is not changed. */
export function applyPatch(current: UserDraft, body: unknown): UserDraft {
  const draft = { ...current };
  for (const operation of patchOperations(body, M.patchPath)) {
    if (operation.path === undefined) applyObject(draft, operation.op, operation.value);
    else applyPath(draft, operation.op, operation.path, operation.value);
  }
  if (!draft.userName) throw new ScimError(400, M.userNameRequired, 'invalidValue');
  return draft;
}
