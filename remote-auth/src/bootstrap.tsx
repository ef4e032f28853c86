import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { createGlobalStyle } from 'styled-components';
import { theme, useSession } from '@portal/shared';
import ForgotPasswordPage from './pages/forgot-password/ForgotPasswordPage';
import GoogleCallbackPage from './pages/google-callback/GoogleCallbackPage';
import LoginPage from './pages/login/LoginPage';
import LogoutPage from './pages/logout/LogoutPage';
import PersonalDataPage from './pages/personal-data/PersonalDataPage';
import ProfilePage from './pages/profile/ProfilePage';
import RegisterPage from './pages/register/RegisterPage';
import ResetPasswordPage from './pages/reset-password/ResetPasswordPage';
import VerifyEmailPage from './pages/verify-email/VerifyEmailPage';

// Standalone, this bootstrap stands in for the host, which owns the global styles and guards inside the portal.
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
        <Route path="/login" element={<LoginPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/verify-email" element={<VerifyEmailPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/google-callback" element={<GoogleCallbackPage />} />
        <Route path="/auth/google/callback" element={<GoogleCallbackPage />} />
        <Route path="/logout" element={<LogoutPage />} />
        <Route path="/playstoreapps/beto/datos-personales" element={<PersonalDataPage />} />
        <Route path="/perfil" element={<ProfilePage />} />
        <Route path="*" element={<Navigate to="/login" replace />} />
      </Routes>
    </BrowserRouter>
  </StrictMode>,
);
