// The seat report a company administrator reads and downloads: per licence (one app and plan), seats bought, in use,
// free, over the number bought, and its expiry (docs/decisions/0074-company-members-and-seats.md).
import { asc, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import { apps, companyLicences, plans } from '../../db/schema.js';
import { waitingCounts } from './directory-seats.js';

/** A licence expiring within this many days is flagged `vencePronto`. */
export const EXPIRING_SOON_DAYS = 30;
const dayMs = 86_400_000;

export interface SeatReportRow {
  app: { id: number; nombre: string };
  plan: { id: number; nombre: string };
  comprados: number;
  enUso: number;
  libres: number;
  excedidos: number;
  fechaVencimiento: string;
  vencePronto: boolean;
  vencida: boolean;
  /** People a directory group entitles to a seat, waiting for one to free (docs/decisions/0108-directory-seats-waiting.md). */
  esperando: number;
  /** The app's roles, each with how many people the company gave it (docs/decisions/0134-app-roles.md), by key. */
  roles: { clave: string; nombre: string; personas: number }[];
}

/** Per app of the company's licences, its roles and how many people the company gave each. */
async function rolesGiven(db: Db, companyId: number) {
  const rows = await rowsOf<{ app_id: number; clave: string; nombre: string; personas: number }>(
    db,
    sql`SELECT r.app_id, r.clave, r.nombre,
          (SELECT count(*) FROM user_app_roles u
            WHERE u.company_id = ${companyId} AND u.app_id = r.app_id AND u.clave = r.clave)::int AS personas
        FROM app_roles r JOIN company_licences l ON l.app_id = r.app_id AND l.company_id = ${companyId}
        ORDER BY r.app_id, r.clave`,
  );
  const byApp = new Map<number, SeatReportRow['roles']>();
  for (const row of rows) {
    const list = byApp.get(Number(row.app_id)) ?? [];
    list.push({ clave: row.clave, nombre: row.nombre, personas: Number(row.personas) });
    byApp.set(Number(row.app_id), list);
  }
  return byApp;
}

/** One row per licence of the company, by app id. */
export async function seatReport(db: Db, companyId: number, now: Date): Promise<SeatReportRow[]> {
  const rows = await db
    .select({
      appId: apps.id,
      appName: apps.nombre,
      planId: plans.id,
      planName: plans.nombre,
      seats: companyLicences.seats,
      inUse: companyLicences.seatsInUse,
      expiresAt: companyLicences.expiresAt,
    })
    .from(companyLicences)
    .innerJoin(apps, eq(apps.id, companyLicences.appId))
    .innerJoin(plans, eq(plans.id, companyLicences.planId))
    .where(eq(companyLicences.companyId, companyId))
    .orderBy(asc(companyLicences.appId));
  const waiting = await waitingCounts(db, companyId);
  const roles = await rolesGiven(db, companyId);
  return rows.map((row) => {
    const left = row.expiresAt.getTime() - now.getTime();
    return {
      app: { id: row.appId, nombre: row.appName },
      plan: { id: row.planId, nombre: row.planName },
      comprados: row.seats,
      enUso: row.inUse,
      libres: Math.max(0, row.seats - row.inUse),
      excedidos: Math.max(0, row.inUse - row.seats),
      fechaVencimiento: row.expiresAt.toISOString(),
      vencePronto: left > 0 && left <= EXPIRING_SOON_DAYS * dayMs,
      vencida: left <= 0,
      esperando: waiting.get(row.appId) ?? 0,
      roles: roles.get(row.appId) ?? [],
    };
  });
}

const header = [
  'App',
  'Plan',
  'Puestos comprados',
  'En uso',
  'Libres',
  'Excedidos',
  'Fecha de vencimiento',
  'Vence pronto',
  'Vencida',
  'Roles',
  'Esperando',
];

/**
 * The cells' separator: the semicolon, which Excel expects in a Spanish locale (where the comma is the decimal mark)
 * and every other spreadsheet program takes; a comma-separated file opens in one column there.
 */
export const csvSeparator = ';';

/**
 * One cell of RFC 4180 (with the separator above): quoted when it holds the separator, a comma, a quote or a line
 * break (quotes doubled). A text a spreadsheet would run as a formula (starting with = + - @, or a tab or carriage
 * return before one) gets a leading apostrophe.
 */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[";,\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const yesNo = (value: boolean) => (value ? 'Sí' : 'No');

/**
 * The report as CSV: a Spanish header row, semicolons between cells, CRLF line ends, and a UTF-8 byte order mark
 * first so spreadsheet programs read the accents. Dates are the UTC day.
 */
export function seatReportCsv(rows: SeatReportRow[]): string {
  const lines = [
    header,
    ...rows.map((row) => [
      row.app.nombre,
      row.plan.nombre,
      row.comprados,
      row.enUso,
      row.libres,
      row.excedidos,
      row.fechaVencimiento.slice(0, 10),
      yesNo(row.vencePronto),
      yesNo(row.vencida),
      row.roles.map((role) => `${role.nombre}: ${role.personas}`).join(' · '),
      row.esperando,
    ]),
  ];
  return `\ufeff${lines.map((cells) => cells.map(csvCell).join(csvSeparator)).join('\r\n')}\r\n`;
}
