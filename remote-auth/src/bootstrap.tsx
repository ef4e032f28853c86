import { Navigate, Route } from 'react-router-dom';
import { mountStandalone, standalonePages } from '@portal/shared';
import AuthorizeErrorPage from './pages/authorize-error/AuthorizeErrorPage';
import CompanySetupPage from './pages/company-setup/CompanySetupPage';
import InvitationPage from './pages/invitation/InvitationPage';
import AuthorizePage from './pages/authorize/AuthorizePage';
import DevicePage from './pages/device/DevicePage';
import ForgotPasswordPage from './pages/forgot-password/ForgotPasswordPage';
import GoogleCallbackPage from './pages/google-callback/GoogleCallbackPage';
import LoginPage from './pages/login/LoginPage';
import LogoutPage from './pages/logout/LogoutPage';
import PersonalDataPage from './pages/personal-data/PersonalDataPage';
import ProfilePage from './pages/profile/ProfilePage';
import RegisterPage from './pages/register/RegisterPage';
import ResetPasswordPage from './pages/reset-password/ResetPasswordPage';
import VerifyEmailPage from './pages/verify-email/VerifyEmailPage';

const page = standalonePages<'auth'>({
  './LoginPage': LoginPage,
  './RegisterPage': RegisterPage,
  './VerifyEmailPage': VerifyEmailPage,
  './ForgotPasswordPage': ForgotPasswordPage,
  './ResetPasswordPage': ResetPasswordPage,
  './GoogleCallbackPage': GoogleCallbackPage,
  './LogoutPage': LogoutPage,
  './PersonalDataPage': PersonalDataPage,
  './ProfilePage': ProfilePage,
  './AuthorizePage': AuthorizePage,
  './AuthorizeErrorPage': AuthorizeErrorPage,
  './DevicePage': DevicePage,
  './InvitationPage': InvitationPage,
  './CompanySetupPage': CompanySetupPage,
});

// Standalone, for the team: inside the portal the host routes these pages and guards them.
mountStandalone(
  <>
    <Route path="/login" element={page('./LoginPage')} />
    <Route path="/register" element={page('./RegisterPage')} />
    <Route path="/verify-email" element={page('./VerifyEmailPage')} />
    <Route path="/forgot-password" element={page('./ForgotPasswordPage')} />
    <Route path="/reset-password" element={page('./ResetPasswordPage')} />
    <Route path="/google-callback" element={page('./GoogleCallbackPage')} />
    <Route path="/auth/google/callback" element={page('./GoogleCallbackPage')} />
    <Route path="/logout" element={page('./LogoutPage')} />
    <Route path="/playstoreapps/beto/datos-personales" element={page('./PersonalDataPage')} />
    <Route path="/perfil" element={page('./ProfilePage')} />
    <Route path="/autorizar" element={page('./AuthorizePage')} />
    <Route path="/autorizar/error" element={page('./AuthorizeErrorPage')} />
    <Route path="/saml/continuar" element={page('./AuthorizePage')} />
    <Route path="/dispositivo" element={page('./DevicePage')} />
    <Route path="/invitacion" element={page('./InvitationPage')} />
    <Route path="/configurar-empresa" element={page('./CompanySetupPage')} />
    <Route path="*" element={<Navigate to="/login" replace />} />
  </>,
);
