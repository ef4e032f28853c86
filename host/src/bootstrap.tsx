import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { registerConfiguredRemotes } from './federation/remotes';
import { prefetchPageData } from './routes/prefetch';
import { PortalRoutes } from './routes/PortalRoutes';
import { startUp } from './session/start-up';
import { GlobalStyle } from './styles/GlobalStyle';

registerConfiguredRemotes();
// Spec §4: start-up runs once, before any guard decides; it takes a `?token=` out of the address before the router
// reads it (issue 17).
void startUp();
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
