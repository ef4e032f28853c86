import { type ComponentType, createElement, type ReactElement, StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Routes } from 'react-router-dom';
import { createGlobalStyle } from 'styled-components';
import type { PageOf, RemoteName } from '@portal/contracts/manifest';
import { useSession } from '../session/store';
import { theme } from './theme';

// Inside the portal the host owns the global styles and the session start-up; a remote running on its own for its
// team gets the same basics here.
const StandaloneGlobalStyle = createGlobalStyle`
  body {
    margin: 0;
    background: ${theme.color.background};
    color: ${theme.color.text};
    font-family: ${theme.font};
  }
`;

/** Renders a remote on its own (its standalone bootstrap): global basics, session start-up, its own router. */
export function mountStandalone(routes: ReactNode): void {
  void useSession.getState().initialize();
  const container = document.getElementById('root');
  if (!container) throw new Error('Missing #root element');
  createRoot(container).render(
    <StrictMode>
      <StandaloneGlobalStyle />
      <BrowserRouter>
        <Routes>{routes}</Routes>
      </BrowserRouter>
    </StrictMode>,
  );
}

/**
 * A remote's pages for its standalone bootstrap, one component for each module the manifest says it exposes: a page
 * left out fails the type check. Returns the element of a page by its module name.
 */
export function standalonePages<R extends RemoteName>(
  pages: Record<PageOf<R>, ComponentType>,
): (module: PageOf<R>) => ReactElement {
  return (module) => createElement(pages[module]);
}
