import { type ReactNode, useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import {
  AppIcon,
  getRuntimeConfig,
  isMobileUserAgent,
  openWebLaunch,
  TEXT,
  theme,
  useApps,
  useMenuFocus,
  useOutsideClick,
  useSession,
  webLaunchTarget,
  type App,
} from '@portal/shared';
import { Anchor, IconButton, Panel } from './dropdown';

const Title = styled.h2`
  margin: 0;
  font-size: 1rem;
`;

const Subtitle = styled.p`
  margin: 2px 0 12px;
  color: ${theme.color.muted};
  font-size: 0.875rem;
`;

const Grid = styled.ul`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: 8px;
  margin: 0;
  padding: 0;
  list-style: none;
`;

const Tile = styled.button`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 6px;
  width: 100%;
  min-height: 96px;
  padding: 10px 6px;
  border: 1px solid transparent;
  border-radius: ${theme.radius};
  background: transparent;
  color: ${theme.color.text};
  font: inherit;
  font-size: 0.875rem;
  text-align: center;
  cursor: pointer;
  &:hover { background: ${theme.color.background}; border-color: ${theme.color.border}; }
`;

const State = styled.p`
  margin: 12px 0;
  color: ${theme.color.muted};
  text-align: center;
`;

function GridIcon() {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
      {[4, 11, 18].flatMap((y) => [4, 11, 18].map((x) => <circle key={`${x}-${y}`} cx={x + 1} cy={y + 1} r="2" />))}
    </svg>
  );
}

/** Spec §2: the grid button that lists the web-enabled apps and opens them. */
export function AppsLauncher() {
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const { apps, isLoading, error, ensureLoaded } = useApps();
  const token = useSession((s) => s.token);
  const navigate = useNavigate();
  const close = useCallback(() => setOpen(false), []);
  useOutsideClick(anchor, open, close);
  useMenuFocus(panel, button, open, close);

  const toggle = () => {
    if (!open) void ensureLoaded();
    setOpen(!open);
  };

  const launch = (app: App) => {
    close();
    const allowList = getRuntimeConfig().redirectAllowList;
    const target = webLaunchTarget(app, allowList);
    if (target?.kind === 'new-tab') void openWebLaunch(target, Boolean(token), allowList);
    if (target?.kind === 'navigate') navigate(target.path);
  };

  const webApps = apps.filter((app) => app.isEnabledWeb);
  let body: ReactNode;
  if (isLoading && apps.length === 0) body = <State role="status">{TEXT.loadingApps}</State>;
  else if (error && apps.length === 0) body = <State role="alert">{error}</State>;
  else if (webApps.length === 0) body = <State>{TEXT.noApps}</State>;
  else
    body = (
      <Grid>
        {webApps.map((app) => (
          <li key={app.id}>
            <Tile onClick={() => launch(app)}>
              <AppIcon app={app} size={44} />
              <span>{app.nombre}</span>
            </Tile>
          </li>
        ))}
      </Grid>
    );

  return (
    <Anchor ref={anchor}>
      <IconButton ref={button} aria-label="Aplicaciones" aria-expanded={open} aria-haspopup="true" onClick={toggle}>
        <GridIcon />
      </IconButton>
      {open && (
        <Panel
          ref={panel}
          $width={320}
          $fixed={isMobileUserAgent(navigator.userAgent)}
          role="region"
          aria-label="Aplicaciones"
          data-testid="apps-launcher"
        >
          <Title>Aplicaciones</Title>
          <Subtitle>Conoce todas tus herramientas</Subtitle>
          {body}
        </Panel>
      )}
    </Anchor>
  );
}
