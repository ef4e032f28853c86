import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';

// Every figure of the admin dashboard, computed in UTC from the database. A "paid" plan is one whose name is not
// 'free' (spec §3) and whose monthly price is above zero; a subscription is active while it has not expired.
// Subscriptions are people's own plans (user_plans): a company's seats are one licence sold to the company, not a
// subscription each, and are not counted here (docs/decisions/0077-one-plan-rule-and-organization-scope.md).

export interface Figure {
  value: number;
  previous: number;
  /** Change against the previous month in percent, one decimal; null when the previous month was zero. */
  changePercent: number | null;
}

function figure(value: number, previous: number): Figure {
  return {
    value,
    previous,
    changePercent: previous === 0 ? null : Math.round(((value - previous) / previous) * 1000) / 10,
  };
}

const paid = sql`(lower(p.nombre) <> 'free' AND p.precio_mensual > 0)`;

export const newUsersDays = 14;
export const revenueMonths = 6;

/** One paid charge of billing: the month it was paid in (YYYY-MM, UTC) and its amount in USD. */
export interface PaidCharge {
  month: string;
  amount: number;
}

/** Billing's paid subscription charges since a moment (Unix seconds); absent when billing is not configured. */
export type PaidInvoices = (sinceSeconds: number) => Promise<PaidCharge[]>;

/** The last `revenueMonths` months up to `now`'s, oldest first, as YYYY-MM (UTC). */
export function revenueMonthsUpTo(now: Date): string[] {
  return Array.from({ length: revenueMonths }, (_, index) => {
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (revenueMonths - 1 - index), 1));
    return month.toISOString().slice(0, 7);
  });
}

export async function dashboard(db: Db, now = new Date(), paidInvoices?: PaidInvoices) {
  const at = now.toISOString();
  // Start of this month and of the previous one, in UTC.
  const bounds = sql`date_trunc('month', ${at}::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
  const [counts] = await rowsOf<Record<string, string | number>>(
    db,
    sql`
    WITH b AS (SELECT ${bounds} AS this_month, (${bounds}) - interval '1 month' AS last_month, ${at}::timestamptz AS now)
    SELECT
      (SELECT count(*) FROM users) AS total_users,
      (SELECT count(*) FROM users, b WHERE created_at < b.this_month) AS total_users_prev,
      (SELECT count(*) FROM apps WHERE is_enabled_web OR is_enabled_movil) AS active_apps,
      (SELECT count(*) FROM apps, b WHERE (is_enabled_web OR is_enabled_movil) AND created_at < b.this_month) AS active_apps_prev,
      (SELECT count(*) FROM user_plans up JOIN plans p ON p.id = up.plan_id, b
        WHERE ${paid} AND up.started_at <= b.now AND (up.fecha_vencimiento IS NULL OR up.fecha_vencimiento > b.now)) AS active_subs,
      (SELECT count(*) FROM user_plans up JOIN plans p ON p.id = up.plan_id, b
        WHERE ${paid} AND up.started_at < b.this_month
          AND (up.fecha_vencimiento IS NULL OR up.fecha_vencimiento > b.this_month)) AS active_subs_prev,
      (SELECT count(*) FROM user_plans up JOIN plans p ON p.id = up.plan_id, b
        WHERE ${paid} AND up.started_at >= b.this_month AND up.started_at <= b.now) AS new_subs,
      (SELECT count(*) FROM user_plans up JOIN plans p ON p.id = up.plan_id, b
        WHERE ${paid} AND up.started_at >= b.last_month AND up.started_at < b.this_month) AS new_subs_prev
    FROM b
  `,
  );
  const n = (key: string) => Number(counts?.[key] ?? 0);

  const newUsers = await rowsOf<{ day: string; count: string | number }>(
    db,
    sql`
    SELECT to_char(d.day, 'YYYY-MM-DD') AS day, count(u.id) AS count
    FROM generate_series(
      date_trunc('day', ${at}::timestamptz AT TIME ZONE 'UTC') - interval '1 day' * ${newUsersDays - 1}::int,
      date_trunc('day', ${at}::timestamptz AT TIME ZONE 'UTC'),
      interval '1 day'
    ) AS d(day)
    LEFT JOIN users u ON u.created_at >= d.day AT TIME ZONE 'UTC' AND u.created_at < (d.day + interval '1 day') AT TIME ZONE 'UTC'
    GROUP BY d.day ORDER BY d.day
  `,
  );

  // Revenue is money received: what billing charged for subscriptions, month by month. A plan an administrator
  // grants costs nobody anything and is not revenue; without billing there is none to count.
  const months = revenueMonthsUpTo(now);
  const charged = paidInvoices
    ? await paidInvoices(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (revenueMonths - 1), 1) / 1000)
    : [];
  const revenue = months.map((month) => ({
    month,
    amount:
      Math.round(
        charged.filter((invoice) => invoice.month === month).reduce((sum, invoice) => sum + invoice.amount, 0) * 100,
      ) / 100,
  }));

  const distribution = await rowsOf<{ app: string; plan: string; users: string | number }>(
    db,
    sql`
    SELECT a.nombre AS app, p.nombre AS plan, count(up.id) AS users
    FROM plans p JOIN apps a ON a.id = p.app_id LEFT JOIN user_plans up ON up.plan_id = p.id
    GROUP BY a.id, a.nombre, p.id, p.nombre ORDER BY a.id, p.id
  `,
  );
  const assigned = distribution.reduce((sum, row) => sum + Number(row.users), 0);

  return {
    totalUsers: figure(n('total_users'), n('total_users_prev')),
    activeApps: figure(n('active_apps'), n('active_apps_prev')),
    activeSubscriptions: figure(n('active_subs'), n('active_subs_prev')),
    newSubscriptions: figure(n('new_subs'), n('new_subs_prev')),
    newUsersPerDay: newUsers.map((row) => ({ date: row.day, count: Number(row.count) })),
    monthlyRevenue: revenue,
    revenueSource: paidInvoices ? ('billing' as const) : ('none' as const),
    planDistribution: distribution.map((row) => ({
      app: row.app,
      plan: row.plan,
      users: Number(row.users),
      percentage: assigned === 0 ? 0 : Math.round((Number(row.users) / assigned) * 1000) / 10,
    })),
  };
}
