import { StrictMode, type ReactElement } from 'react';
import { PageShown } from './federation/RemotePage';
import { PortalRoutes } from './routes/PortalRoutes';
import { GlobalStyle } from './styles/GlobalStyle';

/**
 * The shell's whole tree inside a router: the browser's (bootstrap.tsx, BrowserRouter) and the build's prerender of
 * the sign-in pages (host/prerender, a static router) render this one tree, so the server's markup is what the
 * browser's first render hydrates. `onPageShown`: called each time a remote page is on screen (PageShown).
 */
export function portalTree(router: (routes: ReactElement) => ReactElement, onPageShown?: () => void): ReactElement {
  return (
    <StrictMode>
      <PageShown value={onPageShown}>
        <GlobalStyle />
        {router(<PortalRoutes />)}
      </PageShown>
    </StrictMode>
  );
}
