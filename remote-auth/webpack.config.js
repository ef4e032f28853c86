const { federatedConfig, REMOTES } = require('../scripts/webpack/federation');

module.exports = federatedConfig({
  dir: __dirname,
  name: REMOTES.auth,
  port: 3001,
  exposes: {
    './LoginPage': './src/pages/login/LoginPage.tsx',
    './RegisterPage': './src/pages/register/RegisterPage.tsx',
    './VerifyEmailPage': './src/pages/verify-email/VerifyEmailPage.tsx',
    './ForgotPasswordPage': './src/pages/forgot-password/ForgotPasswordPage.tsx',
    './ResetPasswordPage': './src/pages/reset-password/ResetPasswordPage.tsx',
    './GoogleCallbackPage': './src/pages/google-callback/GoogleCallbackPage.tsx',
    './LogoutPage': './src/pages/logout/LogoutPage.tsx',
    './PersonalDataPage': './src/pages/personal-data/PersonalDataPage.tsx',
    './ProfilePage': './src/pages/profile/ProfilePage.tsx',
  },
  title: 'Portal: cuenta',
});
