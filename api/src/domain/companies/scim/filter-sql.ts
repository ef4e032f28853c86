// A parsed SCIM filter (filter.ts) as the WHERE condition on the company's resources.
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { companyScimUsers } from '../../../db/schema.js';
import type { Filter } from './filter.js';
import { uuidPattern } from './users.js';

/** A LIKE pattern that matches `value` literally (PostgreSQL's default escape is the backslash). */
const likeLiteral = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/** A text comparison of a filter (eq ne co sw ew) on `column`. */
export function textCompare(column: SQL, op: string, value: string): SQL {
  switch (op) {
    case 'eq':
      return sql`${column} = ${value}`;
    case 'ne':
      return sql`${column} <> ${value}`;
    case 'co':
      return sql`${column} like ${`%${likeLiteral(value)}%`}`;
    case 'sw':
      return sql`${column} like ${`${likeLiteral(value)}%`}`;
    default:
      return sql`${column} like ${`%${likeLiteral(value)}`}`;
  }
}

const dateOperators = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' } as const;

/** A date of meta against an ISO date-time (filter.ts checked both the operator and the value). */
function dateCompare(column: AnyColumn, op: string, value: string): SQL {
  const operator = dateOperators[op as keyof typeof dateOperators];
  return sql`${column} ${sql.raw(operator)} ${value}::timestamptz`;
}

/** The WHERE condition of a parsed filter (the company's condition is added by the caller). */
export function filterCondition(filter: Filter): SQL {
  const t = companyScimUsers;
  switch (filter.kind) {
    case 'and':
      return sql`(${filterCondition(filter.left)} and ${filterCondition(filter.right)})`;
    case 'or':
      return sql`(${filterCondition(filter.left)} or ${filterCondition(filter.right)})`;
    case 'present':
      if (filter.attribute === 'externalId') return sql`${t.externalId} is not null`;
      if (filter.attribute === 'displayName') return sql`${t.displayName} <> ''`;
      if (filter.attribute === 'givenName') return sql`${t.givenName} <> ''`;
      if (filter.attribute === 'familyName') return sql`${t.familyName} <> ''`;
      return sql`true`;
  }
  const { attribute, op, value } = filter;
  if (attribute === 'active') {
    return op === 'eq' ? sql`${t.active} = ${value as boolean}` : sql`${t.active} <> ${value as boolean}`;
  }
  const text = value as string;
  switch (attribute) {
    case 'userName':
    case 'emails':
      // Case-insensitive, on the index (company_id, lower(user_name)).
      return textCompare(sql`lower(${t.userName})`, op, text.toLowerCase());
    case 'displayName':
      return textCompare(sql`lower(${t.displayName})`, op, text.toLowerCase());
    case 'givenName':
      return textCompare(sql`lower(${t.givenName})`, op, text.toLowerCase());
    case 'familyName':
      return textCompare(sql`lower(${t.familyName})`, op, text.toLowerCase());
    case 'created':
      return dateCompare(t.createdAt, op, text);
    case 'lastModified':
      return dateCompare(t.updatedAt, op, text);
    case 'externalId':
      return op === 'ne'
        ? sql`(${t.externalId} is null or ${t.externalId} <> ${text})`
        : textCompare(sql`${t.externalId}`, op, text);
    case 'id':
      if (op === 'eq') return uuidPattern.test(text) ? sql`${t.id} = ${text.toLowerCase()}::uuid` : sql`false`;
      if (op === 'ne') return uuidPattern.test(text) ? sql`${t.id} <> ${text.toLowerCase()}::uuid` : sql`true`;
      return textCompare(sql`${t.id}::text`, op, text.toLowerCase());
  }
}
