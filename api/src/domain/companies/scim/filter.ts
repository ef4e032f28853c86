// The SCIM filters the portal understands (RFC 7644 §3.4.2.2), parsed by hand: a few attributes, eq ne co sw ew pr,
// `and`/`or` with optional parentheses, gt ge lt le on the dates of meta. A value may come unquoted (`userName sw O`,
// as Microsoft's reference collection sends it): a bare word is read as the string it spells. Anything else is a 400
// invalidFilter with a Spanish detail, never a 500.
import { ScimError, scimMessages as M, shown } from './errors.js';

/** The attributes a filter may name; `emails` stands for emails.value and emails[type eq "work"].value. */
export type FilterAttribute =
  | 'userName'
  | 'externalId'
  | 'id'
  | 'emails'
  | 'active'
  | 'displayName'
  | 'givenName'
  | 'familyName'
  | 'created'
  | 'lastModified';
export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';

export type Filter =
  | { kind: 'compare'; attribute: FilterAttribute; op: CompareOp; value: string | boolean }
  | { kind: 'present'; attribute: FilterAttribute }
  | { kind: 'and' | 'or'; left: Filter; right: Filter };

export const maxFilterLength = 1000;
const maxDepth = 20;

const coreUserUrn = 'urn:ietf:params:scim:schemas:core:2.0:user:';

/** The attribute a filter's (or a PatchOp's) path names, or undefined when it is none the portal filters on. */
export function filterAttribute(path: string): FilterAttribute | undefined {
  let name = path.trim().toLowerCase();
  if (name.startsWith(coreUserUrn)) name = name.slice(coreUserUrn.length);
  switch (name) {
    case 'username':
      return 'userName';
    case 'externalid':
      return 'externalId';
    case 'id':
      return 'id';
    case 'active':
      return 'active';
    case 'displayname':
      return 'displayName';
    case 'name.givenname':
      return 'givenName';
    case 'name.familyname':
      return 'familyName';
    case 'meta.created':
      return 'created';
    case 'meta.lastmodified':
      return 'lastModified';
    case 'emails':
    case 'emails.value':
      return 'emails';
  }
  return workEmailPath.test(name) ? 'emails' : undefined;
}

/** `emails[type eq "work"].value`, spaces free inside the brackets. */
export const workEmailPath = /^emails\[\s*type\s+eq\s+"work"\s*\]\.value$/i;

type Token =
  | { kind: 'open' | 'close'; at: number }
  | { kind: 'string'; value: string; at: number }
  | { kind: 'word'; value: string; at: number };

function syntaxError(text: string, at: number): ScimError {
  return new ScimError(400, M.filterSyntax(shown(text.slice(at, at + 20) || 'el final')), 'invalidFilter');
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    if (/\s/.test(char)) {
      i++;
    } else if (char === '(' || char === ')') {
      tokens.push({ kind: char === '(' ? 'open' : 'close', at: i });
      i++;
    } else if (char === '"') {
      // A JSON string: its escapes are JSON's.
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (end >= text.length) throw syntaxError(text, i);
      let value: unknown;
      try {
        value = JSON.parse(text.slice(i, end + 1));
      } catch {
        throw syntaxError(text, i);
      }
      tokens.push({ kind: 'string', value: value as string, at: i });
      i = end + 1;
    } else {
      // A word: an attribute path (with a bracketed value filter, which may hold spaces and quotes), an operator, a
      // keyword or a literal.
      const start = i;
      while (i < text.length && !/[\s()"]/.test(text[i] as string)) {
        if (text[i] === '[') {
          const close = text.indexOf(']', i);
          if (close < 0) throw syntaxError(text, i);
          i = close + 1;
        } else {
          i++;
        }
      }
      tokens.push({ kind: 'word', value: text.slice(start, i), at: start });
    }
  }
  return tokens;
}

const textOps = new Set(['eq', 'ne', 'co', 'sw', 'ew']);
/** The operators a date takes (RFC 7644 §3.4.2.2: gt ge lt le order dates). */
const dateOps = new Set(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const dateAttributes = new Set<FilterAttribute>(['created', 'lastModified']);
/** An RFC 3339 date-time, any number of fraction digits (.NET sends seven). */
const dateTime = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** Parses a filter, or throws the 400 invalidFilter that says where it went wrong. */
export function parseFilter(text: string): Filter {
  if (text.length > maxFilterLength) throw new ScimError(400, M.filterTooLong, 'invalidFilter');
  const tokens = tokenize(text);
  let position = 0;
  const peek = () => tokens[position];
  const at = () => peek()?.at ?? text.length;
  const keyword = (token: Token | undefined, word: string) =>
    token?.kind === 'word' && token.value.toLowerCase() === word;

  function expression(depth: number): Filter {
    if (depth > maxDepth) throw syntaxError(text, at());
    let left = conjunction(depth);
    while (keyword(peek(), 'or')) {
      position++;
      left = { kind: 'or', left, right: conjunction(depth) };
    }
    return left;
  }

  function conjunction(depth: number): Filter {
    let left = term(depth);
    while (keyword(peek(), 'and')) {
      position++;
      left = { kind: 'and', left, right: term(depth) };
    }
    return left;
  }

  function term(depth: number): Filter {
    const token = peek();
    if (!token) throw syntaxError(text, text.length);
    if (token.kind === 'open') {
      position++;
      const inner = expression(depth + 1);
      if (peek()?.kind !== 'close') throw syntaxError(text, at());
      position++;
      return inner;
    }
    if (token.kind !== 'word') throw syntaxError(text, token.at);
    if (keyword(token, 'not')) throw new ScimError(400, M.filterOperator('not'), 'invalidFilter');
    position++;
    const attribute = filterAttribute(token.value);
    if (!attribute) throw new ScimError(400, M.filterAttribute(shown(token.value)), 'invalidFilter');
    const opToken = peek();
    if (opToken?.kind !== 'word') throw syntaxError(text, at());
    const op = opToken.value.toLowerCase();
    position++;
    if (op === 'pr') return { kind: 'present', attribute };
    if (!(dateAttributes.has(attribute) ? dateOps : textOps).has(op)) {
      throw new ScimError(400, M.filterOperator(shown(opToken.value)), 'invalidFilter');
    }
    const valueToken = peek();
    if (!valueToken || valueToken.kind === 'open' || valueToken.kind === 'close') throw syntaxError(text, at());
    position++;
    return { kind: 'compare', attribute, op: op as CompareOp, value: literal(attribute, op as CompareOp, valueToken) };
  }

  function literal(attribute: FilterAttribute, op: CompareOp, token: Token): string | boolean {
    const wrongType = () => new ScimError(400, M.filterValue(attribute), 'invalidFilter');
    if (attribute === 'active') {
      if (op !== 'eq' && op !== 'ne') throw new ScimError(400, M.filterOperator(op), 'invalidFilter');
      const value = token.kind === 'word' || token.kind === 'string' ? scimBoolean(token.value) : undefined;
      if (value === undefined) throw wrongType();
      return value;
    }
    // A bare word is the string it spells (the keywords true, false and null are no string).
    if (token.kind !== 'string' && (token.kind !== 'word' || /^(true|false|null)$/i.test(token.value))) {
      throw wrongType();
    }
    if (!dateAttributes.has(attribute)) return token.value;
    const date = isoDate(token.value);
    if (date === undefined) throw wrongType();
    return date;
  }

  const filter = expression(0);
  if (position < tokens.length) throw syntaxError(text, at());
  return filter;
}

/** An RFC 3339 date-time as an ISO string in UTC to the millisecond, or undefined when it is none. */
function isoDate(text: string): string | undefined {
  const parts = dateTime.exec(text.trim());
  if (!parts) return undefined;
  const time = Date.parse(`${parts[1]}${(parts[2] ?? '').slice(0, 4)}${parts[3]}`);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/**
 * A SCIM boolean: JSON true/false, or the strings Microsoft Entra ID sends ("True", "False") in any case. Anything
 * else is undefined (the caller refuses it): a non-empty string is NOT true.
 */
export function scimBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  return text === 'true' ? true : text === 'false' ? false : undefined;
}

/** The userName a filter asks for exactly (`userName eq "…"` alone), which may adopt a member of the company. */
export function exactUserName(filter: Filter): string | undefined {
  return filter.kind === 'compare' &&
    filter.op === 'eq' &&
    (filter.attribute === 'userName' || filter.attribute === 'emails') &&
    typeof filter.value === 'string'
    ? filter.value
    : undefined;
}
