import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import styled from 'styled-components';
import { Button, getRuntimeConfig, isAllowedRedirect, leaveTo, readToken, Spinner, useSession } from '@portal/shared';
import { AuthLayout, TextLink } from '../../components/AuthLayout';

const Actions = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 16px;
`;

/**
 * /logout (spec §2): ends the session, then goes to the given redirect URL (only an allowed one) or /login, also
 * when the API's logout fails (the store only logs that).
 *
 * A visit alone never signs anyone out: any site can link here (or open it in a frame-less navigation), so with a
 * session in this browser the page asks first and ends it only on 'Cerrar sesión'. The portal's own buttons (the top
 * bar's menu, the admin panel) call the logout themselves and never come here. With no session there is nothing to
 * ask about, and the page goes straight on.
 */
export default function LogoutPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const logout = useSession((s) => s.logout);
  const email = useSession((s) => s.user?.email);
  // Read once: the question is about the session this browser had when the page opened.
  const [hadSession] = useState(() => readToken() !== null);
  const [confirmed, setConfirmed] = useState(!hadSession);
  const started = useRef(false);

  useEffect(() => {
    if (!confirmed || started.current) return;
    started.current = true;
    const target = params.get('redirect_url');
    void logout().then((samlChain) => {
      // SAML apps that take their logout through the browser come first; the chain ends at /login.
      if (samlChain) leaveTo(samlChain);
      else if (target && isAllowedRedirect(target, getRuntimeConfig().redirectAllowList)) leaveTo(target);
      else navigate('/login', { replace: true });
    });
  }, [confirmed, logout, navigate, params]);

  if (!confirmed) {
    return (
      <AuthLayout
        title="¿Cerrar sesión?"
        subtitle={
          email ? `Se cerrará la sesión de ${email} en este navegador.` : 'Se cerrará tu sesión en este navegador.'
        }
      >
        <Actions>
          <Button $block onClick={() => setConfirmed(true)}>
            Cerrar sesión
          </Button>
          <TextLink to="/apps">Cancelar</TextLink>
        </Actions>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Cerrar sesión">
      <Spinner label="Cerrando sesión..." />
    </AuthLayout>
  );
}
