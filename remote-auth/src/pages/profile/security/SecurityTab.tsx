import { useState } from 'react';
import { Alert, hasNoSecondFactor } from '@portal/shared';
import { ApplicationsSection } from './ApplicationsSection';
import { CompanyRulesSection } from './CompanyRulesSection';
import { PasskeysSection } from './PasskeysSection';
import { SessionsSection } from './SessionsSection';
import { TrustedDevicesSection } from './TrustedDevicesSection';
import { TwoFactorSection } from './TwoFactorSection';
import { useSecurityStatus } from './useSecurityStatus';

/**
 * 'Seguridad' (docs/decisions/0017-second-factor.md): a thin list of sections, each self-contained. The account's
 * second factors are read once here: the administrator's notice and the authenticator's section show them, and a
 * passkey added or removed reads them again.
 */
export function SecurityTab() {
  const security = useSecurityStatus();
  const { status } = security;
  // 'Cerrar todas las demás sesiones' ends the trusted devices too: their list is read again.
  const [devicesVersion, setDevicesVersion] = useState(0);
  return (
    <div>
      {status?.secondFactorRequired && hasNoSecondFactor(status) && (
        <Alert tone="info">
          Como administrador debes configurar un segundo factor (una aplicación de autenticación o una llave de acceso)
          para usar el panel de administración.
        </Alert>
      )}
      <TwoFactorSection security={security} />
      <PasskeysSection onChange={() => void security.reload()} />
      <TrustedDevicesSection version={devicesVersion} />
      <SessionsSection onOthersEnded={() => setDevicesVersion((n) => n + 1)} />
      <CompanyRulesSection />
      <ApplicationsSection />
    </div>
  );
}
