import { type ReactNode, startTransition, useCallback, useDeferredValue, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import {
  cardSurface,
  Alert,
  LoadFailed,
  Button,
  getRuntimeConfig,
  openWebLaunch,
  Spinner,
  Tabs,
  TEXT,
  theme,
  useApps,
  useSession,
  type App,
  VisuallyHidden,
} from '@portal/shared';
import { listAppsWithPlans } from '../../api/apps-with-plans';
import { proPlanOf, seatPlanNote } from '../../rules/plans';
import { CAMPAIGN_ART } from '../../components/campaign-art';
import { tileGrid } from '../../components/lists';
import { Heading, Page } from '../../components/Page';
import { AppCard, type Platform } from './AppCard';
import { CompanyNotices } from './CompanyNotices';
import { GetAppDialog } from './GetAppDialog';
import { launchFor, type StoreLink } from './launch';
import { PlanBadges } from './PlanBadges';
import { PresentationModal } from './presentation/PresentationModal';
import { usePresentation } from './usePresentation';

const Top = styled.header`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-start;
  justify-content: space-between;
  gap: 12px 24px;
  margin-bottom: 20px;
  /* On a phone the greeting is compact, so that the first app card shows on the first screen. */
  @media (max-width: ${theme.breakpoint.mobile}) {
    gap: 6px;
    margin-bottom: 12px;
    h1 { font-size: 1.2rem; }
  }
`;

const Banners = styled.div`
  display: grid;
  grid-template-columns: 2fr 1fr;
  gap: 16px;
  margin-bottom: 24px;
  @media (max-width: ${theme.breakpoint.mobile}) { grid-template-columns: 1fr; gap: 8px; margin-bottom: 12px; }
`;

const Promo = styled.a`
  position: relative;
  display: flex;
  flex-direction: column;
  justify-content: center;
  min-height: 132px;
  padding: 20px 24px;
  border-radius: ${theme.radius};
  overflow: hidden;
  color: #ffffff;
  text-decoration: none;
  background: linear-gradient(120deg, #1e3a8a, #1d4ed8 55%, #0f766e);
  strong { font-size: 1.5rem; line-height: 1.2; }
  span { opacity: 0.92; max-width: 36ch; }
  /* The campaign's image, beside the words at the banner's right. */
  isolation: isolate;
  img { position: absolute; z-index: -1; right: 12px; bottom: 0; height: 92%; max-width: 45%; object-fit: contain; }
  &:focus-visible { outline: 3px solid ${theme.color.primary}; outline-offset: 3px; }
  /* Where the banner is narrow the picture gets a column of its own: in the corner it would run under the words. */
  @media (max-width: 1000px) {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    align-content: center;
    align-items: center;
    column-gap: 12px;
    strong { grid-column: 1; grid-row: 1; align-self: end; }
    span { grid-column: 1; grid-row: 2; align-self: start; }
    img { position: static; grid-column: 2; grid-row: 1 / span 2; height: 96px; max-width: none; }
  }
  @media (max-width: ${theme.breakpoint.mobile}) {
    min-height: 0;
    padding: 12px 16px;
    strong { font-size: 1.1rem; }
    span { font-size: 0.875rem; }
    img { height: 64px; }
  }
`;

const Upgrade = styled.section`
  display: flex;
  flex-direction: column;
  justify-content: center;
  gap: 10px;
  padding: 20px;
  ${cardSurface}
  p { margin: 0; color: ${theme.color.muted}; }
  /* On a phone: the sentence and its button on one row. */
  @media (max-width: ${theme.breakpoint.mobile}) {
    flex-direction: row;
    align-items: center;
    padding: 10px 12px;
    p { font-size: 0.875rem; }
    button { flex: none; }
  }
`;

const Grid = styled.div`
  ${tileGrid('260px', 'auto-fill', '16px')}
  padding-top: 20px;
`;

// The four tabs on one line where it holds them (about 965 px); narrower (a phone, a tablet), two by two with every
// label whole: a strip that scrolls sideways shows some tab only in part.
const TabsArea = styled.div`
  container-type: inline-size;
  [role='tab'] { white-space: nowrap; flex: none; }
  @container (max-width: 959px) {
    [role='tablist'] {
      display: grid;
      grid-template-columns: 1fr 1fr;
      gap: 0 4px;
    }
    [role='tab'] { white-space: normal; padding: 6px 8px; line-height: 1.25; }
  }
`;

const Failed = styled(LoadFailed)`
  padding-top: 20px;
`;

const State = styled.p`
  padding: 32px 0;
  text-align: center;
  color: ${theme.color.muted};
`;

const TABS = [
  { id: 'web', label: 'Aplicaciones web' },
  { id: 'mobile', label: 'Aplicaciones para móvil' },
  { id: 'files', label: 'Archivos (Próximamente)', disabled: true },
  { id: 'education', label: 'Educación (Próximamente)', disabled: true },
];

/**
 * The ids of the apps that have a PRO plan to move to; null while unknown (or when the catalogue cannot be read, when
 * every card keeps its 'Mejorar Plan' as the spec has it).
 */
function useUpgradableApps(): ReadonlySet<number> | null {
  const [ids, setIds] = useState<ReadonlySet<number> | null>(null);
  useEffect(() => {
    let current = true;
    void listAppsWithPlans().then((apps) => {
      if (!current || apps.length === 0) return;
      // Every card changes with it: rendered in slices, the page keeps answering meanwhile.
      startTransition(() => setIds(new Set(apps.filter((app) => proPlanOf(app)).map((app) => app.id))));
    });
    return () => {
      current = false;
    };
  }, []);
  return ids;
}

/** The apps home (/ and /apps), spec §2. The OAuth return is the callback page's (a one-time code, never `?token=`). */
export default function AppsPage() {
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const token = useSession((s) => s.token);
  // The list arrives through a store, whose changes are synchronous renders: the grid follows one render later, in
  // slices, and always from one consistent state of the list.
  const { apps, isLoading, error, ensureLoaded } = useDeferredValue(useApps());
  const [platform, setPlatform] = useState<Platform>('web');
  const [notice, setNotice] = useState<string | null>(null);
  const [getApp, setGetApp] = useState<{ app: App; stores: StoreLink[] } | null>(null);
  const presentation = usePresentation();
  const upgradable = useUpgradableApps();

  useEffect(() => {
    void ensureLoaded();
  }, [ensureLoaded]);

  const open = useCallback(
    (app: App) => {
      const allowList = getRuntimeConfig().redirectAllowList;
      const target = launchFor(app, platform, allowList, navigator.userAgent);
      setNotice(target?.kind === 'notice' ? target.text : null);
      if (target?.kind === 'get-app') setGetApp({ app: target.app, stores: target.stores });
      if (target?.kind === 'new-tab') void openWebLaunch(target, Boolean(token), allowList);
      if (target?.kind === 'navigate') navigate(target.path);
    },
    [platform, token, navigate],
  );

  let body: ReactNode;
  if (isLoading && apps.length === 0) body = <Spinner label={TEXT.loadingApps} />;
  else if (error && apps.length === 0) body = <Failed message={error} onRetry={() => void ensureLoaded()} />;
  else if (apps.length === 0) body = <State>{TEXT.noApps}</State>;
  else
    body = (
      <Grid>
        {apps.map((app) => (
          <AppCard
            key={app.id}
            app={app}
            platform={platform}
            onOpen={open}
            onUpgrade={(path) => navigate(path)}
            upgradable={upgradable === null || upgradable.has(app.id)}
            seat={seatPlanNote(app.id, user?.planesUsuarios ?? [])}
          />
        ))}
      </Grid>
    );

  const { campaignUrl } = getRuntimeConfig().links;
  // No 'Bienvenido': a greeting that assumes no gender (docs/decisions/0050-screens-where-the-spec-is-silent.md).
  const fullName = [user?.name, user?.lastName].filter(Boolean).join(' ');
  const greeting = fullName ? `¡Hola, ${fullName}!` : '¡Hola!';
  return (
    <Page>
      <Top>
        <Heading>{greeting}</Heading>
        <PlanBadges plans={user?.planesUsuarios ?? []} />
      </Top>
      <CompanyNotices />
      <Banners>
        <Promo href={campaignUrl} target="_blank" rel="noopener noreferrer">
          <img src={CAMPAIGN_ART} alt="" />
          <strong>C+Suite</strong>
          <span>Automatiza, gestiona y optimiza tu planta con una sola cuenta.</span>
          <VisuallyHidden> (campaña; se abre en una pestaña nueva)</VisuallyHidden>
        </Promo>
        <Upgrade aria-label="Mejorar Plan">
          <p>Desbloquea todas las funciones PRO de tus aplicaciones.</p>
          <Button onClick={() => navigate('/planes')}>Mejorar Plan</Button>
        </Upgrade>
      </Banners>
      <TabsArea>
        <Tabs
          items={TABS}
          active={platform}
          onChange={(id) => setPlatform(id as Platform)}
          label="Tipos de aplicaciones"
        >
          {notice && <Alert tone="info">{notice}</Alert>}
          {body}
        </Tabs>
      </TabsArea>
      {getApp && <GetAppDialog app={getApp.app} stores={getApp.stores} onClose={() => setGetApp(null)} />}
      {presentation.open && (
        <PresentationModal
          apps={apps.filter((app) => app.isEnabledWeb)}
          onDismiss={presentation.dismiss}
          onFinish={presentation.finish}
        />
      )}
    </Page>
  );
}
