import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { getRuntimeConfig, theme } from '@portal/shared';

const Help = styled.p`
  margin: 0 0 20px;
  padding: 12px 14px;
  border: 1px solid ${theme.color.info};
  border-radius: ${theme.radius};
  color: ${theme.color.info};
  background: ${theme.color.infoBg};
  a { color: inherit; font-weight: 600; overflow-wrap: anywhere; }
`;

export const PURCHASE_SOON = 'La compra en línea aún no está disponible.';

/**
 * Beside buy buttons that read 'Próximamente' (spec §2), how to upgrade anyway: by writing to the support address
 * (SUPPORT_EMAIL, in the runtime config), or, where none is configured, through an administrator, who can change any
 * person's plan (spec §6). The mail's subject names the app when there is one. For an app whose plan a company seat
 * gives (`company`), the one who changes it is that company: its administrators, not the portal's.
 */
export function UpgradeHelp({ appName, company }: { appName?: string; company?: string }) {
  const { supportEmail } = getRuntimeConfig().links;
  const subject = appName ? `Mejorar mi plan de ${appName}` : 'Mejorar mi plan';
  if (company)
    return (
      <Help>
        {PURCHASE_SOON} Tu plan de esta app es un puesto de {company}: para cambiarlo, habla con un administrador de tu
        empresa.
      </Help>
    );
  return (
    <Help>
      {PURCHASE_SOON} Para mejorar tu plan,{' '}
      {supportEmail ? (
        <>
          escríbenos a <a href={`mailto:${supportEmail}?subject=${encodeURIComponent(subject)}`}>{supportEmail}</a>.
        </>
      ) : (
        'pide a un administrador del portal que lo cambie.'
      )}
    </Help>
  );
}

/** With billing configured, plans are bought on /planes (Stripe's pricing table): the way there. */
export function SubscribeOnPlansPage() {
  return (
    <Help>
      Para suscribirte a un plan, ve a <Link to="/planes">Planes Premium</Link>.
    </Help>
  );
}
