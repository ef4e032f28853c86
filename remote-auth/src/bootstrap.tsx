import { Navigate, Route } from 'react-router-dom';
import { mountStandalone } from '@portal/shared';
import ForgotPasswordPage from './pages/forgot-password/ForgotPasswordPage';
import GoogleCallbackPage from './pages/google-callback/GoogleCallbackPage';
import LoginPage from './pages/login/LoginPage';
import LogoutPage from './pages/logout/LogoutPage';
import PersonalDataPage from './pages/personal-data/PersonalDataPage';
import ProfilePage from './pages/profile/ProfilePage';
import RegisterPage from './pages/register/RegisterPage';
import ResetPasswordPage from './pages/reset-password/ResetPasswordPage';
import VerifyEmailPage from './pages/verify-email/VerifyEmailPage';

// Standalone, for the team: inside the portal the host routes these pages and guards them.
mountStandalone(
  <>
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
  </>,
);
