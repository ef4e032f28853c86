// A list of people to invite, pasted or loaded from a CSV: one person a line (`email, rol, app`, or with ';' or a tab
// as Excel saves it), read into rows the dialog shows and sends, each with what stops it, in Spanish, before anything
// is sent. Roles and apps are taken as the screens name them or by their ids.
import type { CompanyRole } from '../api/company-types';
import { COMPANY_ROLES, companyRoleLabel } from './companies';
import { TEXT_INVITATION_LIST } from './texts';

/** The most people one list carries (the API's bound on one request). */
export const MAX_LIST_ROWS = 500;

/** An app a row may name: one the company has a licence of. */
export interface ListApp {
  id: number;
  nombre: string;
  vencida: boolean;
}

/** One person of the list, as read. */
export interface ListRow {
  /** The line of the text it came from, from 1: where the person finds it in their file. */
  line: number;
  /** The address as accounts keep it (lower-case, no spaces around), or as written when it is none. */
  email: string;
  /** The role it asks for; empty, 'miembro'. Null when the text names no role. */
  rol: CompanyRole | null;
  /** What the role column said (shown when it named no role). */
  rolText: string;
  /** The app whose seat it gets, or null for none (or one the company has no licence of: `problems` says so). */
  app: ListApp | null;
  appText: string;
  /** Why the row cannot be sent; empty when it can. */
  problems: string[];
}

export interface ParsedList {
  rows: ListRow[];
  /** Whether the first line was a header (skipped). */
  header: boolean;
}

/** Who reads the list: the roles they may give, and the company's apps. */
export interface ListChoices {
  roles: readonly CompanyRole[];
  apps: readonly ListApp[];
}

/** Case, accents and repeated spaces aside: 'ADMINISTRADÓR ' is 'administrador'. */
const plain = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim().replace(/\s+/g, ' ');

const HEADER_WORDS = new Set(['email', 'e-mail', 'correo', 'correo electronico', 'mail']);

/** As the API checks an address: one @, no spaces or control characters, 3 to 254 characters. */
const isAddress = (email: string) =>
  email.length >= 3 && email.length <= 254 && /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u.test(email);

/** The separator of a line: ';' (Excel in Spanish), a tab (copied cells), else ','. */
function separatorOf(line: string): string {
  if (line.includes(';')) return ';';
  if (line.includes('\t')) return '\t';
  return ',';
}

/** A line's fields, CSV's double quotes honoured ('"Control, 360"' is one field; '""' inside is a quote). */
export function splitFields(line: string, separator = separatorOf(line)): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted) {
      if (char !== '"') field += char;
      else if (line[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (char === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (char === separator) {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields.map((text) => text.trim());
}

function roleOf(text: string): CompanyRole | null {
  if (text.trim() === '') return 'miembro';
  const wanted = plain(text);
  return COMPANY_ROLES.find((role) => plain(role) === wanted || plain(companyRoleLabel(role)) === wanted) ?? null;
}

function appOf(text: string, apps: readonly ListApp[]): ListApp | null {
  const wanted = plain(text);
  return apps.find((app) => plain(app.nombre) === wanted || String(app.id) === wanted) ?? null;
}

/**
 * Reads the list: each non-empty line a person (`email`, `email, rol` or `email, rol, app`), the first line skipped
 * when it is a header ('email, rol, app', 'Correo;Rol;App'). A row's problems: no email or not one, the same email
 * on an earlier line, a role that does not exist or that the reader may not give, an app the company has no licence
 * of or whose licence has expired, columns beyond the third.
 */
export function parseInvitationList(text: string, choices: ListChoices): ParsedList {
  const T = TEXT_INVITATION_LIST;
  const rows: ListRow[] = [];
  const seen = new Map<string, number>();
  let header = false;
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  for (const [index, raw] of lines.entries()) {
    const fields = splitFields(raw);
    // A blank line, or one of separators only (what a spreadsheet leaves after its last row).
    if (fields.every((field) => field === '')) continue;
    const [first = '', rolText = '', appText = '', ...extra] = fields;
    if (rows.length === 0 && !header && HEADER_WORDS.has(plain(first))) {
      header = true;
      continue;
    }
    const line = index + 1;
    const email = first.toLowerCase();
    const problems: string[] = [];
    if (email === '') problems.push(T.emailMissing);
    else if (!isAddress(email)) problems.push(T.emailInvalid);
    const earlier = seen.get(email);
    if (email !== '' && earlier !== undefined) problems.push(T.repeated(earlier));
    else if (email !== '') seen.set(email, line);

    const rol = roleOf(rolText);
    if (rol === null) problems.push(T.roleUnknown(rolText));
    else if (!choices.roles.includes(rol)) problems.push(T.roleNotYours);

    const app = appText === '' ? null : appOf(appText, choices.apps);
    if (appText !== '' && app === null) problems.push(T.appUnknown(appText));
    else if (app?.vencida) problems.push(T.appExpired(app.nombre));

    if (extra.some((field) => field !== '')) problems.push(T.extraColumns);
    rows.push({ line, email, rol, rolText, app, appText, problems });
  }
  return { rows, header };
}

/** The rows that can be sent, as the API takes them (`filas` of `POST /empresas/:id/invitaciones/lote`). */
export function rowsToSend(
  rows: readonly ListRow[],
): { row: ListRow; send: { email: string; rol: CompanyRole; idApp?: number } }[] {
  return rows.flatMap((row) =>
    row.problems.length > 0 || row.rol === null
      ? []
      : [{ row, send: { email: row.email, rol: row.rol, ...(row.app ? { idApp: row.app.id } : {}) } }],
  );
}
