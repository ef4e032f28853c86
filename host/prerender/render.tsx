// The build's prerender of the sign-in pages (scripts/lib/prerender.mjs bundles this file for Node and calls
// renderPage for each path): the shell's own tree (host/src/PortalApp.tsx) at that path, signed out, with the remote
// pages imported from remote-auth's sources instead of through federation. README, "Rendimiento del front".
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { ServerStyleSheet } from 'styled-components';
import LoginPage from '../../remote-auth/src/pages/login/LoginPage';
import RegisterPage from '../../remote-auth/src/pages/register/RegisterPage';
import { providePage } from '../src/federation/RemotePage';
import { portalTree } from '../src/PortalApp';
import { ROUTES, tabTitle } from '../src/routes/route-table';

/** The pages written at build time, each with the remote-auth page that renders it. */
const PAGES = { '/login': LoginPage, '/register': RegisterPage } as const;

export const PRERENDERED_PATHS = Object.keys(PAGES) as (keyof typeof PAGES)[];

export interface RenderedPage {
  /** The markup of `#root`. */
  html: string;
  /** styled-components' `<style data-styled>` with every rule the markup uses, for the page's head. */
  styles: string;
  /** The tab's title, as the page sets it once running. */
  title: string;
}

/**
 * The page a signed-out person sees first at `path`, as the browser's first render will produce it. The session
 * store is in its initial state, as hydration reads it (zustand's server snapshot); with no token stored the guest
 * guard shows the page at once (host/src/guards/access.ts).
 */
export function renderPage(path: keyof typeof PAGES): RenderedPage {
  const route = ROUTES.find((candidate) => candidate.path === path);
  if (!route) throw new Error(`${path} no está en la tabla de rutas`);
  providePage(route.remote, route.module, PAGES[path]);
  const sheet = new ServerStyleSheet();
  try {
    const html = renderToString(
      sheet.collectStyles(portalTree((routes) => <StaticRouter location={path}>{routes}</StaticRouter>)),
    );
    return { html, styles: sheet.getStyleTags(), title: tabTitle(route.title) };
  } finally {
    sheet.seal();
  }
}
