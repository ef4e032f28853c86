// The SCIM Group resource of a company (company_scim_groups and its members): its schema URN, how a body or a PatchOp
// reads (RFC 7644 §3.5.2, as Microsoft Entra ID and Okta send them) and how a group reads back to the directory.
import type { companyScimGroups } from '../../../db/schema.js';
import { ScimError, scimMessages as M, shown } from './errors.js';
import { patchOperations } from './patch.js';
import type { ScimScope } from './users.js';
import { uuidPattern } from './users.js';

export const groupSchema = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const coreGroupUrn = groupSchema.toLowerCase();

export type GroupRow = typeof companyScimGroups.$inferSelect;

/** A member as a group reads back: the SCIM User's id and its userName. */
export interface GroupMember {
  id: string;
  userName: string;
}

/** The Group resource of a row; without `members` when the directory excluded them. */
export function groupResource(row: GroupRow, members: GroupMember[] | undefined, scope: ScimScope) {
  return {
    schemas: [groupSchema],
    id: row.id,
    ...(row.externalId !== null ? { externalId: row.externalId } : {}),
    displayName: row.displayName,
    ...(members
      ? {
          members: members.map((member) => ({
            value: member.id,
            display: member.userName,
            type: 'User',
            $ref: `${scope.baseUrl}/Users/${member.id}`,
          })),
        }
      : {}),
    meta: {
      resourceType: 'Group',
      created: new Date(row.createdAt).toISOString(),
      lastModified: new Date(row.updatedAt).toISOString(),
      location: `${scope.baseUrl}/Groups/${row.id}`,
      version: `W/"${row.version}"`,
    },
  };
}
export type GroupResource = ReturnType<typeof groupResource>;

/**
 * What a request does to a group: its name and externalId as they end, and its members: the whole list when given
 * (`replace`, a PUT), plus the ones added and taken out after it, in the order the operations came.
 */
export interface GroupDraft {
  displayName: string;
  externalId: string | null;
  members?: Set<string>;
  added: Set<string>;
  removed: Set<string>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The path without the core Group schema's URN, lower-cased. */
function normalPath(path: string): string {
  const lower = path.trim().toLowerCase();
  return lower.startsWith(`${coreGroupUrn}:`) ? lower.slice(coreGroupUrn.length + 1) : lower;
}

/** `members[value eq "…"]`: the one member a path names. */
const memberPath = /^members\[\s*value\s+eq\s+"([^"]*)"\s*\]$/i;

/** The member ids of a `members` value: a list (or one) of `{ value }`. */
function memberIds(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry) => {
    const id = isObject(entry) ? entry.value : entry;
    if (typeof id !== 'string' || !id.trim()) throw new ScimError(400, M.groupMemberValue, 'invalidValue');
    return id.trim().toLowerCase();
  });
}

function name(value: unknown): string {
  if (typeof value !== 'string') throw new ScimError(400, M.notString('displayName'), 'invalidValue');
  const trimmed = value.trim();
  if (!trimmed) throw new ScimError(400, M.groupNameRequired, 'invalidValue');
  if (trimmed.length > 200) throw new ScimError(400, M.tooLong('displayName', 200), 'invalidValue');
  return trimmed;
}

function externalId(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new ScimError(400, M.notString('externalId'), 'invalidValue');
  const trimmed = value.trim();
  if (trimmed.length > 255) throw new ScimError(400, M.tooLong('externalId', 255), 'invalidValue');
  return trimmed || null;
}

type Operation = 'add' | 'replace' | 'remove';

function addMembers(draft: GroupDraft, ids: string[]) {
  for (const id of ids) {
    draft.removed.delete(id);
    draft.added.add(id);
  }
}

function removeMembers(draft: GroupDraft, ids: string[]) {
  for (const id of ids) {
    draft.added.delete(id);
    draft.removed.add(id);
  }
}

function replaceMembers(draft: GroupDraft, ids: string[]) {
  draft.members = new Set(ids);
  draft.added.clear();
  draft.removed.clear();
}

/** One attribute of a group (a path and its value) applied to the draft. */
function applyPath(draft: GroupDraft, op: Operation, rawPath: string, value: unknown): void {
  const path = normalPath(rawPath);
  const one = memberPath.exec(path);
  if (one) {
    const id = (one[1] ?? '').trim().toLowerCase();
    if (op === 'remove') removeMembers(draft, [id]);
    else addMembers(draft, [id]);
    return;
  }
  switch (path) {
    case 'displayname':
      if (op === 'remove') throw new ScimError(400, M.patchRemoveRequired('displayName'), 'mutability');
      draft.displayName = name(value);
      return;
    case 'externalid':
      draft.externalId = op === 'remove' ? null : externalId(value);
      return;
    case 'members':
      if (op === 'add') addMembers(draft, memberIds(value));
      else if (op === 'replace') replaceMembers(draft, memberIds(value));
      // `remove` with a list takes those out; without a value, every member (RFC 7644 §3.5.2.2).
      else if (value === undefined || value === null) replaceMembers(draft, []);
      else removeMembers(draft, memberIds(value));
      return;
    case 'id':
    case 'meta':
      throw new ScimError(400, M.readOnly(rawPath), 'mutability');
  }
  throw new ScimError(400, M.groupPath(shown(rawPath)), 'invalidPath');
}

/** An object of a group's attributes (a POST or PUT body, or a PatchOp value without path). */
function applyObject(draft: GroupDraft, op: Operation, value: Record<string, unknown>): void {
  for (const [key, part] of Object.entries(value)) {
    const path = normalPath(key);
    if (path === coreGroupUrn && isObject(part)) applyObject(draft, op, part);
    // A group sent back whole (Okta's PUT and replace) carries its id, meta and schemas: nothing to write.
    else if (path === 'id' || path === 'meta' || path === 'schemas') continue;
    else applyPath(draft, op, key, part);
  }
}

/** The draft of a POST or PUT body: the whole group (no members given: none). */
export function groupFromResource(body: unknown): GroupDraft {
  if (!isObject(body)) throw new ScimError(400, M.bodyNotObject, 'invalidSyntax');
  const draft: GroupDraft = {
    displayName: '',
    externalId: null,
    members: new Set(),
    added: new Set(),
    removed: new Set(),
  };
  applyObject(draft, 'replace', body);
  if (!draft.displayName) throw new ScimError(400, M.groupNameRequired, 'invalidValue');
  return draft;
}

/** The draft after a PatchOp body's operations, in order, over the group's name and externalId. */
export function groupPatch(current: { displayName: string; externalId: string | null }, body: unknown): GroupDraft {
  const draft: GroupDraft = { ...current, added: new Set(), removed: new Set() };
  for (const operation of patchOperations(body, M.groupPath)) {
    if (operation.path === undefined) applyObject(draft, operation.op, operation.value);
    else applyPath(draft, operation.op, operation.path, operation.value);
  }
  return draft;
}

/**
 * The member ids a draft gives: each must be one of the company's SCIM users (a uuid; which ones exist the caller
 * checks). Ids taken out that name nobody are left alone: they are out already.
 */
export function givenMembers(draft: GroupDraft): string[] {
  const ids = [...new Set([...(draft.members ?? []), ...draft.added])];
  for (const id of ids) {
    if (!uuidPattern.test(id)) throw new ScimError(400, M.groupMemberUnknown(shown(id)), 'invalidValue');
  }
  return ids;
}
