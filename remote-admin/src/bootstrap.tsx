import { Navigate, Route } from 'react-router-dom';
import { mountStandalone, standalonePages } from '@portal/shared';
import AdminLayout from './layout/AdminLayout';
import AppsAdminPage from './pages/apps/AppsAdminPage';
import CompaniesPage from './pages/companies/CompaniesPage';
import CompanyPage from './pages/companies/CompanyPage';
import DashboardPage from './pages/dashboard/DashboardPage';
import UsersPage from './pages/users/UsersPage';

const page = standalonePages<'admin'>({
  './AdminLayout': AdminLayout,
  './UsersPage': UsersPage,
  './DashboardPage': DashboardPage,
  './AppsAdminPage': AppsAdminPage,
  './CompaniesPage': CompaniesPage,
  './CompanyPage': CompanyPage,
});

// Standalone, for the team: the admin layout itself refuses anyone but an administrator.
mountStandalone(
  <>
    <Route element={page('./AdminLayout')}>
      <Route path="/admin" element={page('./UsersPage')} />
      <Route path="/admin/usuarios" element={page('./UsersPage')} />
      <Route path="/admin/dashboard" element={page('./DashboardPage')} />
      <Route path="/admin/apps" element={page('./AppsAdminPage')} />
      <Route path="/admin/empresas" element={page('./CompaniesPage')} />
      <Route path="/admin/empresas/:id" element={page('./CompanyPage')} />
    </Route>
    <Route path="*" element={<Navigate to="/admin" replace />} />
  </>,
);
