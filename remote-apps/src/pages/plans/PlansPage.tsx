import { useEffect, useState } from 'react';
import styled from 'styled-components';
import {
  cardSurface,
  Alert,
  AppIcon,
  getRuntimeConfig,
  Spinner,
  TEXT,
  theme,
  useSession,
  type AppWithPlans,
  planLabel,
  type UserPlan,
} from '@portal/shared';
import { listAppsWithPlans } from '../../api/apps-with-plans';
import { freePlanOf, heldEntryOf, isHeld, planOrigin, plansPageApps, proPlanOf } from '../../rules/plans';
import { AppIllustration } from '../../components/AppIllustration';
import { tileGrid } from '../../components/lists';
import { CurrentPlanBadge, FeatureList, PlanPrices, PlanTitleRow } from '../../components/Offers';
import { Heading, Lead, Muted, Page } from '../../components/Page';
import { SuiteOffer } from '../../components/SuiteOffer';
import { UpgradeHelp } from '../../components/UpgradeHelp';
import { PricingTable } from './PricingTable';

const Cards = styled.div`
  ${tileGrid('280px', 'auto-fit', '16px')}
  margin-top: 20px;
`;

const Card = styled.section`
  display: flex;
  flex-direction: column;
  gap: 12px;
  padding: 20px;
  ${cardSurface}
  h2 { display: flex; align-items: center; gap: 10px; margin: 0; font-size: 1.25rem; }
  h3 { margin: 0; font-size: 1rem; }
`;

const Tier = styled.section<{ $pro?: boolean }>`
  padding: 12px 14px;
  border-radius: ${theme.radius};
  border: 1px solid ${(p) => (p.$pro ? theme.color.info : theme.color.border)};
  background: ${(p) => (p.$pro ? theme.color.infoBg : theme.color.background)};
  ul { margin-bottom: 0; }
`;

export const NO_PLANS = 'Sin planes disponibles';

const NONE: readonly UserPlan[] = [];

/**
 * One app of the plans page: its free plan's and PRO plan's features, and the PRO prices (coming soon); the plan the
 * person has is marked.
 */
function AppPlansCard({ app, planesUsuarios }: { app: AppWithPlans; planesUsuarios: readonly UserPlan[] }) {
  const free = freePlanOf(app);
  const pro = proPlanOf(app);
  const entry = heldEntryOf(app.id, planesUsuarios);
  const held = entry?.plan;
  const origin = planOrigin(entry);
  const titleId = `plan-app-${app.id}`;
  return (
    <Card aria-labelledby={titleId} data-testid="plan-card">
      <AppIllustration appId={app.id} height={110} />
      <h2 id={titleId}>
        <AppIcon app={app} size={36} />
        {app.nombre}
      </h2>
      {/* Each plan a region named with its app ('Beto Pro Gratis'): three cards, one name per region. */}
      {free && (
        <Tier aria-labelledby={`${titleId} ${titleId}-free`}>
          <PlanTitleRow>
            <h3 id={`${titleId}-free`}>Gratis</h3>
            {isHeld(free, held) && <CurrentPlanBadge origin={origin} />}
          </PlanTitleRow>
          <FeatureList items={free.caracteristicas} />
        </Tier>
      )}
      {pro && (
        <Tier $pro aria-labelledby={`${titleId} ${titleId}-pro`}>
          <PlanTitleRow>
            <h3 id={`${titleId}-pro`}>{planLabel(pro)}</h3>
            {isHeld(pro, held) && <CurrentPlanBadge origin={origin} />}
          </PlanTitleRow>
          <FeatureList items={pro.caracteristicas} />
          <PlanPrices plan={pro} />
        </Tier>
      )}
    </Card>
  );
}

/**
 * The portal's own presentation of the plans (spec §2): how to upgrade while buying is coming soon, the suite banner
 * and the apps 2, 3, 1.
 */
function PlansCatalogue() {
  const planesUsuarios = useSession((s) => s.user?.planesUsuarios) ?? NONE;
  const [apps, setApps] = useState<AppWithPlans[] | null>(null);
  useEffect(() => {
    let current = true;
    void listAppsWithPlans().then((loaded) => current && setApps(plansPageApps(loaded)));
    return () => {
      current = false;
    };
  }, []);

  return (
    <>
      <UpgradeHelp />
      <SuiteOffer wide />
      {apps === null ? (
        <Spinner label={TEXT.loading} />
      ) : apps.length === 0 ? (
        <Muted>{NO_PLANS}</Muted>
      ) : (
        <Cards>
          {apps.map((app) => (
            <AppPlansCard key={app.id} app={app} planesUsuarios={planesUsuarios} />
          ))}
        </Cards>
      )}
    </>
  );
}

/**
 * /planes, spec §2. With billing configured (runtime config `billing`), the provider's pricing table is where people
 * subscribe, so it is the page; without it, or when the table cannot be prepared, the portal's own presentation
 * with purchase 'Próximamente'.
 */
export default function PlansPage() {
  const user = useSession((s) => s.user);
  const { publishableKey, pricingTableId } = getRuntimeConfig().billing;
  const [tableError, setTableError] = useState<string | null>(null);
  const showTable = Boolean(publishableKey && pricingTableId && user) && tableError === null;

  return (
    <Page>
      <Heading>Planes Premium</Heading>
      <Lead>Elige el plan que mejor se adapta a tu trabajo.</Lead>
      {showTable && user ? (
        <PricingTable
          userId={user.id}
          publishableKey={publishableKey}
          pricingTableId={pricingTableId}
          onError={setTableError}
        />
      ) : (
        <>
          {tableError && <Alert>{tableError}</Alert>}
          <PlansCatalogue />
        </>
      )}
    </Page>
  );
}
