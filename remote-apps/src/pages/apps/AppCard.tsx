import styled from 'styled-components';
import { cardSurface, AppIcon, Button, theme, type App } from '@portal/shared';
import { upgradePath } from '../../rules/plans';
import { AppIllustration } from '../../components/AppIllustration';

export type Platform = 'web' | 'mobile';

const Card = styled.article<{ $disabled: boolean }>`
  display: flex;
  flex-direction: column;
  gap: 12px;
  padding: 16px;
  ${cardSurface}
  ${(p) => (p.$disabled ? `filter: grayscale(1); background: ${theme.color.background}; box-shadow: none; border: 1px dashed ${theme.color.border};` : '')}
`;

const Head = styled.div`
  display: flex;
  align-items: center;
  gap: 12px;
  h2 { margin: 0; font-size: 1.125rem; }
`;

const Description = styled.p`
  margin: 0;
  color: ${theme.color.muted};
  flex: 1;
`;

const Tags = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
  margin: 0;
  padding: 0;
  list-style: none;
  li {
    padding: 2px 10px;
    border-radius: 999px;
    background: ${theme.color.background};
    border: 1px solid ${theme.color.border};
    font-size: 0.8125rem;
  }
`;

const Unavailable = styled.p`
  margin: 0;
  font-size: 0.875rem;
  font-weight: 600;
  color: ${theme.color.muted};
`;

const Seat = styled.p`
  margin: 0;
  font-size: 0.875rem;
  color: ${theme.color.text};
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  button { flex: 1 1 auto; padding: 0 12px; white-space: nowrap; }
`;

export const UNAVAILABLE: Record<Platform, string> = {
  web: 'No disponible en la web',
  mobile: 'No disponible para móvil',
};

export function isEnabledOn(app: App, platform: Platform): boolean {
  return platform === 'web' ? app.isEnabledWeb : app.isEnabledMovil;
}

/**
 * Spec §2: one app on one platform. A card disabled for the platform is greyed and its buttons are inactive.
 * What 'Abrir' does is decided by the caller (shared launch rules). Where a company's seat gives the person the app's
 * plan, the card says so instead of offering 'Mejorar Plan': the company pays for it.
 */
export function AppCard({
  app,
  platform,
  onOpen,
  onUpgrade,
  upgradable = true,
  seat = null,
}: {
  app: App;
  platform: Platform;
  onOpen: (app: App) => void;
  onUpgrade: (path: string) => void;
  /** False for an app without a PRO plan: 'Mejorar Plan' would lead to 'Sin planes disponibles'. */
  upgradable?: boolean;
  /** The seat's plan in words ('Tu plan PRO te lo da un puesto de …', `seatPlanNote`); null for the person's own. */
  seat?: string | null;
}) {
  const enabled = isEnabledOn(app, platform);
  const upgrade = upgradable && !seat ? upgradePath(app) : null;
  const titleId = `app-${platform}-${app.id}`;
  return (
    <Card $disabled={!enabled} aria-labelledby={titleId} data-enabled={enabled}>
      <AppIllustration appId={app.id} height={120} />
      <Head>
        <AppIcon app={app} size={44} />
        {/* The page's h1 is the greeting: the cards come next in its outline (axe's heading-order). */}
        <h2 id={titleId}>{app.nombre}</h2>
      </Head>
      {app.descripcion && <Description>{app.descripcion}</Description>}
      {app.tags.length > 0 && (
        <Tags aria-label="Etiquetas">
          {app.tags.map((tag) => (
            <li key={tag.descripcion}>{tag.descripcion}</li>
          ))}
        </Tags>
      )}
      {!enabled && <Unavailable>{UNAVAILABLE[platform]}</Unavailable>}
      {seat && <Seat>{seat}</Seat>}
      <Actions>
        <Button disabled={!enabled} onClick={() => onOpen(app)} aria-label={`Abrir ${app.nombre}`}>
          Abrir
        </Button>
        {upgrade && (
          <Button
            $variant="secondary"
            disabled={!enabled}
            onClick={() => onUpgrade(upgrade)}
            aria-label={`Mejorar Plan de ${app.nombre}`}
          >
            Mejorar Plan
          </Button>
        )}
      </Actions>
    </Card>
  );
}
