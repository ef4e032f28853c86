import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import styled from 'styled-components';
import { Card, PageContainer, Tabs, theme, useSession } from '@portal/shared';
import { PasswordForm } from './PasswordForm';
import { ProfileCard } from './ProfileCard';
import { ProfileForm } from './ProfileForm';
import { SecurityTab } from './security/SecurityTab';

// The page sets its own font, colour and box model: it renders inside the host and standalone alike.
const Page = styled(PageContainer)`
  font-family: ${theme.font};
  color: ${theme.color.text};
  line-height: 1.5;
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  h1 { margin: 0 0 20px; font-size: 1.75rem; line-height: 1.25; }
`;

// minmax(0, 1fr): a column as wide as the page leaves it, not as wide as its widest content (the phone's country
// names would stretch it past a phone's screen).
const Columns = styled.div`
  display: grid;
  grid-template-columns: 300px minmax(0, 1fr);
  gap: 24px;
  align-items: start;
  @media (max-width: 860px) {
    grid-template-columns: minmax(0, 1fr);
  }
`;

const Panel = styled(Card)`
  form { margin-top: 20px; max-width: 520px; }
  @media (max-width: ${theme.breakpoint.mobile}) {
    padding: 14px;
    /* The tab names fit on one line of a phone. */
    [role='tab'] { padding: 0 8px; font-size: 0.95rem; }
  }
`;

const TABS = [
  { id: 'info', label: 'Información del perfil' },
  { id: 'password', label: 'Contraseña' },
  { id: 'security', label: 'Seguridad' },
];

/** `?tab=` names in the address (the 'Nuevo inicio de sesión' mail links to /perfil?tab=seguridad). */
const TAB_PARAMS: Record<string, string> = { informacion: 'info', contrasena: 'password', seguridad: 'security' };

/** /perfil (spec §2): the side card and the tabs ('Seguridad': docs/decisions/0017-second-factor.md). */
export default function ProfilePage() {
  const user = useSession((s) => s.user);
  const requested = new URLSearchParams(useLocation().search).get('tab');
  const [tab, setTab] = useState(TAB_PARAMS[requested ?? ''] ?? 'info');
  return (
    <Page>
      <h1>Mi perfil</h1>
      <Columns>
        <ProfileCard user={user} />
        <Panel>
          <Tabs items={TABS} active={tab} onChange={setTab} label="Secciones del perfil">
            {tab === 'info' && <ProfileForm key={user?.id ?? 'nadie'} />}
            {tab === 'password' && <PasswordForm />}
            {tab === 'security' && <SecurityTab />}
          </Tabs>
        </Panel>
      </Columns>
    </Page>
  );
}
