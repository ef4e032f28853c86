// The build's prerender (scripts/lib/prerender.mjs bundles this file for Node and calls it for each path): the shell's
// own tree (host/src/PortalApp.tsx) at that path, with the remote pages imported from remote-auth's sources instead
// of through federation. Two kinds of page (docs/decisions/0026-prerendered-sign-in-pages.md):
// - the sign-in pages, as a signed-out person sees them first;
// - the shell's frame of every page of the user area and the admin panel, as a person with a kept session sees it
//   first: the top bar (where the page has one) and 'Cargando...' while the session is checked.
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { ServerStyleSheet } from 'styled-components';
import { SESSION_HINT_COOKIE } from '@portal/shared';
import LoginPage from '../../remote-auth/src/pages/login/LoginPage';
import RegisterPage from '../../remote-auth/src/pages/register/RegisterPage';
import { providePage } from '../src/federation/RemotePage';
import { portalTree } from '../src/PortalApp';
import { type PortalRoute, ROUTES, tabTitle } from '../src/routes/route-table';

/** The sign-in pages written at build time, each with the remote-auth page that renders it. */
const PAGES = { '/login': LoginPage, '/register': RegisterPage } as const;

export const PRERENDERED_PATHS = Object.keys(PAGES) as (keyof typeof PAGES)[];

/**
 * The routes whose frame is written (the user area and the admin panel), as patterns ('/apps/:id'): the frame does
 * not depend on a parameter's value, since the page itself is not in it.
 */
export const FRAME_PATHS = ROUTES.filter((route) => ['user', 'admin', 'company'].includes(route.guard)).map(
  (route) => route.path,
);

/** The cookie that tells the static server a session is kept in this browser (@portal/shared, token-storage.ts). */
export const SESSION_HINT = SESSION_HINT_COOKIE;

export interface RenderedPage {
  /** The markup of `#root`. */
  html: string;
  /** styled-components' `<style data-styled>` with every rule the markup uses, for the page's head. */
  styles: string;
  /** The tab's title, as the page sets it once running. */
  title: string;
}

/** The route of the table at `path` (a pattern: '/apps/:id'). */
function routeAt(path: string): PortalRoute {
  const route = ROUTES.find((candidate) => candidate.path === path);
  if (!route) throw new Error(`${path} no está en la tabla de rutas`);
  return route;
}

/**
 * The shell's tree at `route` as the browser's first render produces it: the session store in its initial state, as
 * hydration reads it (zustand's server snapshot). With no token stored the guest guard shows a sign-in page at once;
 * the guards of every other page show 'Cargando...' until the session is checked (host/src/guards/access.ts).
 */
function renderAt(route: PortalRoute): RenderedPage {
  const sheet = new ServerStyleSheet();
  try {
    const html = renderToString(
      sheet.collectStyles(portalTree((routes) => <StaticRouter location={route.path}>{routes}</StaticRouter>)),
    );
    return { html, styles: sheet.getStyleTags(), title: tabTitle(route.title) };
  } finally {
    sheet.seal();
  }
}

/** The sign-in page a signed-out person sees first at `path`. */
export function renderPage(path: keyof typeof PAGES): RenderedPage {
  const route = routeAt(path);
  providePage(route.remote, route.module, PAGES[path]);
  return renderAt(route);
}

/** The frame a person with a kept session sees first at a page of `FRAME_PATHS`. */
export function renderFrame(path: string): RenderedPage {
  if (!FRAME_PATHS.includes(path)) throw new Error(`${path} no es una página del área de usuario`);
  return renderAt(routeAt(path));
}
