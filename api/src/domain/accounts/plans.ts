// A person's plans per app (`/plan-usuario`): what the one plan rule gives them (apps-and-plans/effective-plans.ts),
// their own plan, which an administrator changes, and the free plans an account gets as it becomes active.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Db } from '../../db/client.js';
import { HttpError, present } from '../../lib/errors.js';
import type { ChangePlanBody } from '../../schemas/user-plans.js';
import { type AuditActor, recordAudit } from '../audit/log.js';
import { accountMessages } from './messages.js';
import { userExists } from './queries.js';
import { entitlements, seatPlans } from '../apps-and-plans/effective-plans.js';
import { findPlanOfApp } from '../apps-and-plans/catalogue.js';
import { appMessages } from '../apps-and-plans/messages.js';
import { apps, plans, userPlans } from '../../db/schema.js';
import { freePlanName } from '../../db/seed-data.js';

/**
 * Per app that has plans: the user's current plan there by the one plan rule (or null) with where it comes from; their
 * own plan there (`user_plans`, also when it lapsed or a seat outranks it), which is what an administrator edits; the
 * company seats that give them a plan there, which only the company changes; and the plans to choose from.
 */
export async function userAppPlans(db: Db, userId: number, onlyAppId?: number, now?: number) {
  const appRows = await db
    .selectDistinct({ id: apps.id, nombre: apps.nombre })
    .from(apps)
    .innerJoin(plans, eq(plans.appId, apps.id))
    .where(onlyAppId ? eq(apps.id, onlyAppId) : undefined)
    .orderBy(asc(apps.id));
  if (appRows.length === 0) return [];
  const appIds = appRows.map((row) => row.id);
  const planRows = await db
    .select({ id: plans.id, nombre: plans.nombre, appId: plans.appId })
    .from(plans)
    .where(inArray(plans.appId, appIds))
    .orderBy(asc(plans.id));
  const { plans: current, empresas } = await entitlements(db, userId, { appId: onlyAppId, now });
  const own = await db
    .select({ appId: userPlans.appId, planId: userPlans.planId, fechaVencimiento: userPlans.fechaVencimiento })
    .from(userPlans)
    .where(and(eq(userPlans.userId, userId), inArray(userPlans.appId, appIds)));
  // A person in no company holds no seat: the plans page of most people costs no seat query.
  const seats = empresas.length ? await seatPlans(db, userId, { appId: onlyAppId, now }) : [];
  const at = now ?? Date.now();

  return appRows.map((app) => {
    const mine = current.find((row) => row.app.id === app.id);
    const ownRow = own.find((row) => row.appId === app.id);
    const ownPlan = ownRow && planRows.find((plan) => plan.id === ownRow.planId);
    return {
      app,
      planActual: mine
        ? {
            id: mine.plan.id,
            nombre: mine.plan.nombre,
            fechaVencimiento: mine.fechaVencimiento?.toISOString() ?? null,
            origen: mine.origen,
            empresa: mine.empresa,
          }
        : null,
      planPropio:
        ownRow && ownPlan
          ? {
              id: ownPlan.id,
              nombre: ownPlan.nombre,
              fechaVencimiento: ownRow.fechaVencimiento?.toISOString() ?? null,
              // A free plan never lapses (nothing ends it): only a paid one's passed date counts.
              vencido:
                ownPlan.nombre.toLowerCase() !== freePlanName &&
                ownRow.fechaVencimiento !== null &&
                ownRow.fechaVencimiento.getTime() <= at,
            }
          : null,
      puestos: seats
        .filter((seat) => seat.app.id === app.id)
        .map((seat) => ({
          empresa: seat.empresa,
          plan: seat.plan,
          fechaVencimiento: seat.fechaVencimiento.toISOString(),
        })),
      planesApp: planRows.filter((plan) => plan.appId === app.id).map(({ id, nombre }) => ({ id, nombre })),
    };
  });
}

export async function currentPlan(db: Db, userId: number, appId: number) {
  const [row] = await db
    .select({ planId: userPlans.planId, fechaVencimiento: userPlans.fechaVencimiento })
    .from(userPlans)
    .where(and(eq(userPlans.userId, userId), eq(userPlans.appId, appId)));
  return row;
}

/**
 * Sets the user's plan in the app; `started_at` moves only when the plan itself changes (a new subscription). Emits
 * `plan.asignado` or `plan.cambiado` and notifies session-state (triggers on user_plans, docs/triggers.md).
 */
export async function setPlan(
  db: Db,
  userId: number,
  appId: number,
  planId: number,
  expiry: Date,
  planChanged: boolean,
) {
  await db
    .insert(userPlans)
    .values({ userId, appId, planId, fechaVencimiento: expiry })
    .onConflictDoUpdate({
      target: [userPlans.userId, userPlans.appId],
      set: planChanged ? { planId, fechaVencimiento: expiry, startedAt: new Date() } : { fechaVencimiento: expiry },
    });
}

/**
 * Gives the user the plan `idPlan` of app `idApp` until `fechaVencimiento` (administrators only), audited with the
 * plan before and after; the answer is the app's plans for that user.
 */
export async function changeUserPlan(db: Db, actor: AuditActor, change: Static<typeof ChangePlanBody>) {
  const { idUsuario, idApp, idPlan, fechaVencimiento } = change;
  if (idPlan === 0) {
    throw new HttpError(400, appMessages.planRequired, 'PLAN_REQUIRED');
  }
  const expiry = new Date(fechaVencimiento);
  if (Number.isNaN(expiry.getTime())) {
    throw new HttpError(400, appMessages.invalidExpiryDate, 'VALIDATION_ERROR');
  }
  if (!(await userExists(db, idUsuario))) throw new HttpError(404, accountMessages.userNotFound, 'USER_NOT_FOUND');
  const [appRow] = await db.select({ id: apps.id }).from(apps).where(eq(apps.id, idApp));
  if (!appRow) throw new HttpError(404, appMessages.appNotFound, 'APP_NOT_FOUND');
  if (!(await findPlanOfApp(db, idPlan, idApp))) {
    throw new HttpError(400, appMessages.planNotInApp, 'PLAN_NOT_IN_APP');
  }

  return db.transaction(async (tx) => {
    const before = await currentPlan(tx, idUsuario, idApp);
    await setPlan(tx, idUsuario, idApp, idPlan, expiry, before?.planId !== idPlan);
    const [row] = await userAppPlans(tx, idUsuario, idApp);
    const info = present(row, 'the plans of the app');
    const planName = (id: number | undefined) => info.planesApp.find((plan) => plan.id === id)?.nombre ?? null;
    await recordAudit(tx, actor, [
      {
        action: 'user.plan_change',
        target: { type: 'user', id: idUsuario },
        details: {
          appId: idApp,
          app: info.app.nombre,
          fromPlanId: before?.planId ?? null,
          fromPlan: planName(before?.planId),
          toPlanId: idPlan,
          toPlan: planName(idPlan),
          fromFechaVencimiento: before?.fechaVencimiento?.toISOString() ?? null,
          toFechaVencimiento: expiry.toISOString(),
        },
      },
    ]);
    return info;
  });
}

/** Gives `userId` the free plan of every app that has one, in the caller's transaction; the plans it has stay. */
export async function giveFreePlans(tx: Db, userId: number): Promise<void> {
  const freePlans = await tx
    .select({ appId: plans.appId, planId: plans.id })
    .from(plans)
    .where(sql`lower(${plans.nombre}) = ${freePlanName}`);
  // Each free plan given emits `plan.asignado` (docs/triggers.md).
  if (freePlans.length > 0) {
    await tx
      .insert(userPlans)
      .values(freePlans.map((plan) => ({ userId, ...plan })))
      .onConflictDoNothing({ target: [userPlans.userId, userPlans.appId] });
  }
}
