import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { Alert, errorMessage, planLabel, Spinner, theme, type DashboardData } from '@portal/shared';
import { getDashboard } from '../../api/admin';
import { ADMIN_FALLBACK } from '../../api/texts';
import { AdminPage, Panel } from '../../components/Page';
import { StatCard, StatGrid } from '../../components/StatCard';
import { formatChange, formatWholeUsd } from '../../rules/format';
import { TEXT_ADMIN } from '../../texts';
import { AuditLogSection } from './AuditLogSection';
import { dayLabel, monthLabel } from './chart-scale';
import { BarChart, LineChart } from './Charts';
import { TEXT_DASHBOARD } from './texts';

const Two = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(320px, 1fr));
  gap: 24px;
  & > section { margin-bottom: 0; }
  margin-bottom: 24px;
  @media (max-width: ${theme.breakpoint.mobile}) { grid-template-columns: minmax(0, 1fr); }
`;

const Distribution = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  li { padding: 8px 0; border-bottom: 1px solid ${theme.color.border}; }
  .row { display: flex; justify-content: space-between; gap: 12px; }
  .bar { height: 8px; margin-top: 6px; border-radius: 4px; background: ${theme.color.infoBg}; overflow: hidden; }
  .bar span { display: block; height: 100%; background: ${theme.color.primary}; }
  .muted { color: ${theme.color.muted}; }
`;

const Quick = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  a {
    display: inline-flex;
    align-items: center;
    min-height: 44px;
    padding: 0 18px;
    border-radius: ${theme.radius};
    border: 1px solid ${theme.color.primary};
    color: ${theme.color.primary};
    font-weight: 600;
    text-decoration: none;
  }
  a:hover { background: ${theme.color.infoBg}; }
  a:focus-visible { outline: 3px solid ${theme.color.primary}; outline-offset: 2px; }
`;

const RevenueNote = styled.p`
  margin: -8px 0 12px;
  color: ${theme.color.muted};
  font-size: 0.875rem;
`;

/** The revenue axis: '2,5k' from a thousand up. */
const compactUsd = (value: number) =>
  value >= 1000
    ? `${(value / 1000).toLocaleString('es-ES', { maximumFractionDigits: 1 })}k`
    : value.toLocaleString('es-ES', { maximumFractionDigits: 1 });

/** 'Dashboard de Administración' (spec §2), on the database's real figures. */
/** The four figures of the dashboard's top row, each with its change against the previous month. */
const STAT_CARDS = [
  { key: 'totalUsers', title: TEXT_ADMIN.totalUsers },
  { key: 'activeApps', title: TEXT_DASHBOARD.activeApps },
  { key: 'activeSubscriptions', title: TEXT_DASHBOARD.activeSubscriptions },
  { key: 'newSubscriptions', title: TEXT_DASHBOARD.newSubscriptions },
] as const;

export default function DashboardPage() {
  const [data, setData] = useState<DashboardData | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    getDashboard().then(setData, (failure) => setError(errorMessage(failure, ADMIN_FALLBACK.dashboard)));
  }, []);

  return (
    <AdminPage>
      <h1>{TEXT_DASHBOARD.dashboardTitle}</h1>
      {error && <Alert>{error}</Alert>}
      {!data && !error && <Spinner label={TEXT_DASHBOARD.loadingDashboard} />}
      {data && (
        <>
          <StatGrid>
            {STAT_CARDS.map(({ key, title }) => (
              <StatCard key={key} title={title} value={data[key].value} note={formatChange(data[key].changePercent)} />
            ))}
          </StatGrid>

          <Two>
            <Panel aria-labelledby="chart-users">
              <h2 id="chart-users">{TEXT_DASHBOARD.newUsersPerDay}</h2>
              <BarChart
                title={TEXT_DASHBOARD.newUsersPerDay}
                everyOtherLabel
                points={data.newUsersPerDay.map((day) => ({
                  label: dayLabel(day.date),
                  value: day.count,
                  text: String(day.count),
                }))}
              />
            </Panel>
            <Panel aria-labelledby="chart-revenue">
              <h2 id="chart-revenue">{TEXT_DASHBOARD.monthlyRevenue}</h2>
              <RevenueNote>
                {data.revenueSource === 'none' ? TEXT_DASHBOARD.revenueNoBilling : TEXT_DASHBOARD.revenueCounts}
              </RevenueNote>
              <LineChart
                title={TEXT_DASHBOARD.monthlyRevenue}
                short={compactUsd}
                points={data.monthlyRevenue.map((month) => ({
                  label: monthLabel(month.month),
                  value: month.amount,
                  text: formatWholeUsd(month.amount),
                }))}
              />
            </Panel>
          </Two>

          <Two>
            <Panel aria-labelledby="plan-distribution">
              <h2 id="plan-distribution">{TEXT_DASHBOARD.planDistribution}</h2>
              <Distribution>
                {data.planDistribution.map((item) => (
                  <li key={`${item.app}-${item.plan}`}>
                    <div className="row">
                      <span>
                        {item.app} · {planLabel({ nombre: item.plan })}
                      </span>
                      <span className="muted">
                        {TEXT_DASHBOARD.usersCount(item.users)} · {item.percentage.toLocaleString('es-ES')} %
                      </span>
                    </div>
                    <div className="bar" aria-hidden="true">
                      <span style={{ width: `${item.percentage}%` }} />
                    </div>
                  </li>
                ))}
              </Distribution>
            </Panel>
            <Panel aria-labelledby="quick-actions">
              <h2 id="quick-actions">{TEXT_DASHBOARD.quickActions}</h2>
              <Quick>
                <Link to="/admin/usuarios">{TEXT_DASHBOARD.manageUsers}</Link>
                <Link to="/admin/apps">{TEXT_DASHBOARD.configureApps}</Link>
                <a href="#auditoria">{TEXT_DASHBOARD.viewReports}</a>
              </Quick>
            </Panel>
          </Two>
        </>
      )}
      <AuditLogSection />
    </AdminPage>
  );
}
