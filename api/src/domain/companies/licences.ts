import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { apps, companies, companyLicences, plans } from '../../db/schema.js';
import { HttpError } from '../../lib/errors.js';
import { type AuditActor, recordAudit } from '../audit/log.js';
import { appMessages } from '../apps-and-plans/messages.js';
import { findPlanOfApp } from '../apps-and-plans/catalogue.js';
import { companyNotFound } from './companies.js';
import { seatWaiting } from './directory-seats.js';
import { lockCompanyRow } from './seat-locks.js';
import { companyMessages as M } from './messages.js';

/**
 * A licence as the API answers it (`Licencia`). Nothing is taken back by itself (docs/decisions/0073): once expired its
 * seats stop giving the plan and no new one is assigned; with fewer seats than in use every assignment stays, the
 * excess shows in `excedidos` and no new one is assigned until the company takes that many back. `aviso` says so.
 */
export interface LicenceView {
  id: number;
  app: { id: number; nombre: string };
  plan: { id: number; nombre: string };
  puestos: number;
  enUso: number;
  libres: number;
  excedidos: number;
  fechaVencimiento: string;
  vencida: boolean;
  aviso?: string;
}

export const licenceNotFound = () => new HttpError(404, M.licenceNotFound, 'LICENCIA_NO_ENCONTRADA');

/** What a licence's seats and expiry mean now, as the company administrator reads them. */
export function licenceFigures(seats: number, inUse: number, expiresAt: Date, now = new Date()) {
  const excedidos = Math.max(0, inUse - seats);
  const vencida = expiresAt.getTime() <= now.getTime();
  const warnings = [vencida ? M.licenceExpired : undefined, excedidos > 0 ? M.seatsExceeded(excedidos) : undefined];
  const aviso = warnings.filter((text) => text !== undefined).join('. ');
  return {
    puestos: seats,
    enUso: inUse,
    libres: Math.max(0, seats - inUse),
    excedidos,
    vencida,
    ...(aviso ? { aviso } : {}),
  };
}

const licenceColumns = {
  id: companyLicences.id,
  appId: apps.id,
  appName: apps.nombre,
  planId: plans.id,
  planName: plans.nombre,
  seats: companyLicences.seats,
  seatsInUse: companyLicences.seatsInUse,
  expiresAt: companyLicences.expiresAt,
};

function licenceView(row: {
  id: number;
  appId: number;
  appName: string;
  planId: number;
  planName: string;
  seats: number;
  seatsInUse: number;
  expiresAt: Date;
}): LicenceView {
  return {
    id: row.id,
    app: { id: row.appId, nombre: row.appName },
    plan: { id: row.planId, nombre: row.planName },
    ...licenceFigures(row.seats, row.seatsInUse, row.expiresAt),
    fechaVencimiento: row.expiresAt.toISOString(),
  };
}

const licenceQuery = (db: Db) =>
  db
    .select(licenceColumns)
    .from(companyLicences)
    .innerJoin(apps, eq(apps.id, companyLicences.appId))
    .innerJoin(plans, eq(plans.id, companyLicences.planId));

/** The company's licences, by app name. */
export async function listLicences(db: Db, companyId: number): Promise<LicenceView[]> {
  const rows = await licenceQuery(db)
    .where(eq(companyLicences.companyId, companyId))
    .orderBy(asc(apps.nombre), asc(apps.id));
  return rows.map(licenceView);
}

async function findLicence(db: Db, companyId: number, appId: number): Promise<LicenceView | undefined> {
  const [row] = await licenceQuery(db).where(
    and(eq(companyLicences.companyId, companyId), eq(companyLicences.appId, appId)),
  );
  return row ? licenceView(row) : undefined;
}

/** The seats the company bought, over its licences that have not expired: what sizes its invitation mails. */
export async function seatsBought(db: Db, companyId: number, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${companyLicences.seats}), 0)`.mapWith(Number) })
    .from(companyLicences)
    .where(and(eq(companyLicences.companyId, companyId), gt(companyLicences.expiresAt, now)));
  return row?.n ?? 0;
}

export interface LicenceTerms {
  idPlan: number;
  puestos: number;
  fechaVencimiento: string;
}

/** The terms checked as the console and the API both need: seats 1..100 000, an expiry in the future. */
function checkedTerms(terms: LicenceTerms): { seats: number; expiresAt: Date } {
  if (!Number.isInteger(terms.puestos) || terms.puestos < 1 || terms.puestos > 100_000) {
    throw new HttpError(400, M.seatsOutOfRange, 'VALIDATION_ERROR');
  }
  const expiresAt = new Date(terms.fechaVencimiento);
  if (Number.isNaN(expiresAt.getTime())) throw new HttpError(400, M.expiryInvalid, 'VALIDATION_ERROR');
  if (expiresAt.getTime() <= Date.now()) throw new HttpError(400, M.expiryInPast, 'VALIDATION_ERROR');
  return { seats: terms.puestos, expiresAt };
}

/** The company exists, the app exists, the plan is one of the app's: else the 404 or 400 that says which. */
async function checkTarget(db: Db, companyId: number, appId: number, planId: number): Promise<void> {
  const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
  if (!company) throw companyNotFound();
  const [app] = await db.select({ id: apps.id }).from(apps).where(eq(apps.id, appId));
  if (!app) throw new HttpError(404, appMessages.appNotFound, 'APP_NOT_FOUND');
  if (!(await findPlanOfApp(db, planId, appId))) throw new HttpError(400, appMessages.planNotInApp, 'PLAN_NOT_IN_APP');
}

const licenceTaken = () => new HttpError(409, M.licenceExists, 'LICENCIA_EXISTENTE');

/** Sells the company a licence of an app (one per company and app), audited; answers it. */
export async function createLicence(
  db: Db,
  actor: AuditActor,
  companyId: number,
  input: LicenceTerms & { idApp: number },
): Promise<LicenceView> {
  const { seats, expiresAt } = checkedTerms(input);
  await checkTarget(db, companyId, input.idApp, input.idPlan);
  if (await findLicence(db, companyId, input.idApp)) throw licenceTaken();
  try {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(companyLicences)
        .values({ companyId, appId: input.idApp, planId: input.idPlan, seats, expiresAt })
        .returning({ id: companyLicences.id });
      await recordAudit(tx, actor, [
        {
          action: 'company.licence_create',
          target: { type: 'company', id: companyId },
          details: {
            licenceId: row?.id,
            appId: input.idApp,
            planId: input.idPlan,
            puestos: seats,
            fechaVencimiento: expiresAt.toISOString(),
          },
          companyId,
        },
      ]);
    });
  } catch (error) {
    // Two sales of the same app at once: the unique (company_id, app_id) decides, with the same 409.
    const cause = (error as { cause?: { code?: string } }).cause ?? (error as { code?: string });
    if (cause.code === '23505') throw licenceTaken();
    throw error;
  }
  const created = await findLicence(db, companyId, input.idApp);
  if (!created) throw licenceNotFound();
  return created;
}

/**
 * Changes a licence's plan, seats and expiry, audited with the terms before. Seats lowered below those in use take
 * nobody's seat back: the answer's `aviso` tells how many the company must take back before assigning others.
 * `seats_in_use` is never written here (a trigger on company_seats owns it).
 */
export async function updateLicence(
  db: Db,
  actor: AuditActor,
  companyId: number,
  appId: number,
  input: LicenceTerms,
): Promise<LicenceView> {
  const { seats, expiresAt } = checkedTerms(input);
  await checkTarget(db, companyId, appId, input.idPlan);
  await db.transaction(async (tx) => {
    // Seats change hands below (seatWaiting): the company's row first, as every seat change locks it.
    await lockCompanyRow(tx, companyId);
    const [before] = await tx
      .select()
      .from(companyLicences)
      .where(and(eq(companyLicences.companyId, companyId), eq(companyLicences.appId, appId)))
      .for('update');
    if (!before) throw licenceNotFound();
    // A new plan or expiry emits `plan.cambiado` to each seat holder and notifies session-state `*` (triggers on
    // company_licences, docs/triggers.md).
    await tx
      .update(companyLicences)
      .set({ planId: input.idPlan, seats, expiresAt })
      .where(eq(companyLicences.id, before.id));
    await recordAudit(tx, actor, [
      {
        action: 'company.licence_update',
        target: { type: 'company', id: companyId },
        details: {
          licenceId: before.id,
          appId,
          de: { planId: before.planId, puestos: before.seats, fechaVencimiento: before.expiresAt.toISOString() },
          a: { planId: input.idPlan, puestos: seats, fechaVencimiento: expiresAt.toISOString() },
          enUso: before.seatsInUse,
        },
        companyId,
      },
    ]);
    // More seats, or a renewal: whoever a directory group keeps waiting takes them.
    await seatWaiting(tx, companyId, appId);
  });
  const updated = await findLicence(db, companyId, appId);
  if (!updated) throw licenceNotFound();
  return updated;
}
