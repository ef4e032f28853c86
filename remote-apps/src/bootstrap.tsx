import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { createGlobalStyle } from 'styled-components';
import { theme, useSession } from '@portal/shared';
import AppsPage from './pages/apps/AppsPage';
import BetoPage from './pages/marketing/BetoPage';
import ControlMaxPage from './pages/marketing/ControlMaxPage';
import PaymentsPage from './pages/payments/PaymentsPage';
import PlansPage from './pages/plans/PlansPage';
import SuccessPage from './pages/success/SuccessPage';
import AppUpgradePage from './pages/upgrade/AppUpgradePage';

// Standalone, this bootstrap stands in for the host, which owns the global styles, the session start-up and the
// guards inside the portal: a team member signs in on the portal (the token is in this origin's storage) or
// arrives with ?token=.
const StandaloneGlobalStyle = createGlobalStyle`
  body {
    margin: 0;
    background: ${theme.color.background};
    font-family: ${theme.font};
  }
`;

void useSession.getState().initialize();

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

createRoot(container).render(
  <StrictMode>
    <StandaloneGlobalStyle />
    <BrowserRouter>
      <Routes>
        <Route path="/" element={<AppsPage />} />
        <Route path="/apps" element={<AppsPage />} />
        <Route path="/apps/:id" element={<AppUpgradePage />} />
        <Route path="/pagos" element={<PaymentsPage />} />
        <Route path="/success" element={<SuccessPage />} />
        <Route path="/planes" element={<PlansPage />} />
        <Route path="/beto" element={<BetoPage />} />
        <Route path="/control-max" element={<ControlMaxPage />} />
      </Routes>
    </BrowserRouter>
  </StrictMode>,
);
