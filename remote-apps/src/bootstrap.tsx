import { Route } from 'react-router-dom';
import { mountStandalone, standalonePages } from '@portal/shared';
import AppsPage from './pages/apps/AppsPage';
import BetoPage from './pages/marketing/BetoPage';
import ControlMaxPage from './pages/marketing/ControlMaxPage';
import PaymentsPage from './pages/payments/PaymentsPage';
import PlansPage from './pages/plans/PlansPage';
import SuccessPage from './pages/success/SuccessPage';
import AppUpgradePage from './pages/upgrade/AppUpgradePage';

const page = standalonePages<'apps'>({
  './AppsPage': AppsPage,
  './AppUpgradePage': AppUpgradePage,
  './PaymentsPage': PaymentsPage,
  './SuccessPage': SuccessPage,
  './PlansPage': PlansPage,
  './BetoPage': BetoPage,
  './ControlMaxPage': ControlMaxPage,
});

// Standalone, for the team: inside the portal the host routes these pages and guards them.
mountStandalone(
  <>
    <Route path="/" element={page('./AppsPage')} />
    <Route path="/apps" element={page('./AppsPage')} />
    <Route path="/apps/:id" element={page('./AppUpgradePage')} />
    <Route path="/pagos" element={page('./PaymentsPage')} />
    <Route path="/success" element={page('./SuccessPage')} />
    <Route path="/planes" element={page('./PlansPage')} />
    <Route path="/beto" element={page('./BetoPage')} />
    <Route path="/control-max" element={page('./ControlMaxPage')} />
  </>,
);
