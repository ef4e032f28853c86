import { Navigate, Route } from 'react-router-dom';
import { mountStandalone } from '@portal/shared';
import AdminLayout from './layout/AdminLayout';
import AppsAdminPage from './pages/apps/AppsAdminPage';
import DashboardPage from './pages/dashboard/DashboardPage';
import UsersPage from './pages/users/UsersPage';

// Standalone, for the team: the admin layout itself refuses anyone but an administrator.
mountStandalone(
  <>
    <Route element={<AdminLayout />}>
      <Route path="/admin" element={<UsersPage />} />
      <Route path="/admin/usuarios" element={<UsersPage />} />
      <Route path="/admin/dashboard" element={<DashboardPage />} />
      <Route path="/admin/apps" element={<AppsAdminPage />} />
    </Route>
    <Route path="*" element={<Navigate to="/admin" replace />} />
  </>,
);
