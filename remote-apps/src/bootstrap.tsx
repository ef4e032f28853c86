import { Route } from 'react-router-dom';
import { mountStandalone } from '@portal/shared';
import AppsPage from './pages/apps/AppsPage';
import BetoPage from './pages/marketing/BetoPage';
import ControlMaxPage from './pages/marketing/ControlMaxPage';
import PaymentsPage from './pages/payments/PaymentsPage';
import PlansPage from './pages/plans/PlansPage';
import SuccessPage from './pages/success/SuccessPage';
import AppUpgradePage from './pages/upgrade/AppUpgradePage';

// Standalone, for the team: inside the portal the host routes these pages and guards them.
mountStandalone(
  <>
    <Route path="/" element={<AppsPage />} />
    <Route path="/apps" element={<AppsPage />} />
    <Route path="/apps/:id" element={<AppUpgradePage />} />
    <Route path="/pagos" element={<PaymentsPage />} />
    <Route path="/success" element={<SuccessPage />} />
    <Route path="/planes" element={<PlansPage />} />
    <Route path="/beto" element={<BetoPage />} />
    <Route path="/control-max" element={<ControlMaxPage />} />
  </>,
);
