import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import styled from 'styled-components';
import {
  billingEnabled,
  cardSurface,
  AppIcon,
  getApp,
  Spinner,
  TEXT,
  type App,
  type Plan,
  planLabel,
  useSession,
} from '@portal/shared';
import { listAppsWithPlans } from '../../api/apps-with-plans';
import { heldEntryOf, isHeld, planOrigin, proPlanOf, seatNote } from '../../rules/plans';
import { AppIllustration, hasIllustration } from '../../components/AppIllustration';
import { CURRENT_PLAN, CurrentPlanBadge, FeatureList, PlanPrices, PlanTitleRow } from '../../components/Offers';
import { BackToApps, Heading, Muted, Page } from '../../components/Page';
import { SuiteOffer } from '../../components/SuiteOffer';
import { SubscribeOnPlansPage, UpgradeHelp } from '../../components/UpgradeHelp';

const Columns = styled.div`
  display: grid;
  grid-template-columns: repeat(3, minmax(0, 1fr));
  gap: 16px;
  align-items: start;
  margin: 0 0 24px;
  @media (max-width: 960px) { grid-template-columns: 1fr; }
`;

const Title = styled(Heading)`
  margin-bottom: 16px;
`;

const Column = styled.section`
  display: flex;
  flex-direction: column;
  gap: 12px;
  padding: 20px;
  ${cardSurface}
  h2 { margin: 0; font-size: 1.25rem; }
  p { margin: 0; }
`;

export const APP_NOT_FOUND = 'App no encontrada';

type Loaded = { kind: 'loading' } | { kind: 'missing' } | { kind: 'ready'; app: App; pro: Plan | undefined };

function useUpgradeData(rawId: string | undefined): Loaded {
  const [state, setState] = useState<Loaded>({ kind: 'loading' });
  useEffect(() => {
    const id = Number(rawId);
    if (!Number.isInteger(id) || id < 1) {
      setState({ kind: 'missing' });
      return;
    }
    let current = true;
    setState({ kind: 'loading' });
    Promise.all([getApp(id), listAppsWithPlans()]).then(
      ([app, withPlans]) => {
        const plans = withPlans.find((entry) => entry.id === id);
        if (current) setState({ kind: 'ready', app, pro: plans ? proPlanOf(plans) : undefined });
      },
      () => current && setState({ kind: 'missing' }),
    );
    return () => {
      current = false;
    };
  }, [rawId]);
  return state;
}

/**
 * /apps/{id}, spec §2: the app's presentation, its PRO plan beside the plan the person has, and the complete suite;
 * above them, how to upgrade while the buy buttons read 'Próximamente'.
 */
export default function AppUpgradePage() {
  const { id } = useParams();
  const state = useUpgradeData(id);
  const planesUsuarios = useSession((s) => s.user?.planesUsuarios);

  if (state.kind === 'loading') return <Spinner label={TEXT.loading} />;
  if (state.kind === 'missing')
    return (
      <Page>
        <Heading>{APP_NOT_FOUND}</Heading>
        <Muted>La aplicación que buscas no existe o ya no está disponible.</Muted>
        <BackToApps />
      </Page>
    );

  const { app, pro } = state;
  const entry = heldEntryOf(app.id, planesUsuarios ?? []);
  const held = entry?.plan;
  const origin = planOrigin(entry);
  const note = seatNote(entry);
  return (
    <Page>
      <Title>{app.nombre}</Title>
      {billingEnabled() ? (
        <SubscribeOnPlansPage />
      ) : (
        <UpgradeHelp
          appName={app.nombre}
          company={entry?.origen === 'empresa' ? (entry.empresa?.nombre ?? undefined) : undefined}
        />
      )}
      <Columns>
        <Column aria-labelledby="presentacion">
          {hasIllustration(app.id) ? <AppIllustration appId={app.id} /> : <AppIcon app={app} size={64} />}
          <h2 id="presentacion">{app.nombre}</h2>
          <p>{app.longDescription || app.descripcion}</p>
        </Column>
        <Column aria-labelledby="plan-pro">
          <PlanTitleRow>
            <h2 id="plan-pro">{pro ? `${app.nombre} ${planLabel(pro)}` : 'Plan PRO'}</h2>
            {pro && isHeld(pro, held) && <CurrentPlanBadge origin={origin} />}
          </PlanTitleRow>
          {held && !(pro && isHeld(pro, held)) && (
            <Muted>
              {CURRENT_PLAN}: {planLabel(held)}
              {origin && ` (${origin})`}
            </Muted>
          )}
          {note && <Muted>{note}</Muted>}
          {pro ? (
            <>
              <FeatureList items={pro.caracteristicas} />
              <PlanPrices plan={pro} />
            </>
          ) : (
            <Muted>Sin planes disponibles</Muted>
          )}
        </Column>
        <SuiteOffer />
      </Columns>
      <BackToApps />
    </Page>
  );
}
