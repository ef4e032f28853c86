import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { createGlobalStyle } from 'styled-components';
import { theme, useSession } from '@portal/shared';
import AdminLayout from './layout/AdminLayout';
import AppsAdminPage from './pages/apps/AppsAdminPage';
import DashboardPage from './pages/dashboard/DashboardPage';
import UsersPage from './pages/users/UsersPage';

// Standalone, this bootstrap stands in for the host: global styles, session start-up and the admin routes.
const StandaloneGlobalStyle = createGlobalStyle`
  body {
    margin: 0;
    background: ${theme.color.background};
    font-family: ${theme.font};
    color: ${theme.color.text};
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
        <Route element={<AdminLayout />}>
          <Route path="/admin" element={<UsersPage />} />
          <Route path="/admin/usuarios" element={<UsersPage />} />
          <Route path="/admin/dashboard" element={<DashboardPage />} />
          <Route path="/admin/apps" element={<AppsAdminPage />} />
        </Route>
        <Route path="*" element={<Navigate to="/admin" replace />} />
      </Routes>
    </BrowserRouter>
  </StrictMode>,
);
