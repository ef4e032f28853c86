import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { useSession } from '@portal/shared';
import { registerConfiguredRemotes } from './federation/remotes';
import { prefetchPageData } from './routes/prefetch';
import { PortalRoutes } from './routes/PortalRoutes';
import { GlobalStyle } from './styles/GlobalStyle';

registerConfiguredRemotes();
// Spec §4: start-up runs once, before any guard decides.
void useSession.getState().initialize();
prefetchPageData(window.location.pathname);

const container = document.getElementById('root');
if (container) {
  createRoot(container).render(
    <StrictMode>
      <GlobalStyle />
      <BrowserRouter>
        <PortalRoutes />
      </BrowserRouter>
    </StrictMode>,
  );
}
