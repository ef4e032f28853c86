import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import {
  ADMIN_ROLE,
  billingEnabled,
  leaveTo,
  theme,
  useBilling,
  useMenuFocus,
  useOutsideClick,
  useSession,
  shownPicture,
} from '@portal/shared';
import { managesCompany } from '../guards/access';
import { Anchor, IconButton, Panel } from './dropdown';

const Who = styled.div`
  padding: 4px 8px 10px;
  border-bottom: 1px solid ${theme.color.border};
  margin-bottom: 6px;
  strong, span { display: block; overflow-wrap: anywhere; }
  span { color: ${theme.color.muted}; font-size: 0.875rem; }
`;

const itemStyle = `
  display: flex;
  align-items: center;
  width: 100%;
  min-height: 44px;
  padding: 0 8px;
  border: 0;
  border-radius: 8px;
  background: transparent;
  color: ${theme.color.text};
  font: inherit;
  text-align: left;
  text-decoration: none;
  cursor: pointer;
  &:hover { background: ${theme.color.background}; }
`;

const ItemLink = styled(Link)`${itemStyle}`;
const ItemButton = styled.button`${itemStyle}`;

const ErrorText = styled.p`
  margin: 6px 8px;
  color: ${theme.color.danger};
  font-size: 0.875rem;
`;

function PersonIcon() {
  return (
    <svg
      width="26"
      height="26"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      aria-hidden="true"
    >
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c1.5-4 4.5-6 8-6s6.5 2 8 6" />
    </svg>
  );
}

/** Spec §2: the avatar menu of the top bar. */
export function AvatarMenu() {
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const user = useSession((s) => s.user);
  const logout = useSession((s) => s.logout);
  const navigate = useNavigate();
  const close = useCallback(() => setOpen(false), []);
  useOutsideClick(anchor, open, close);
  useMenuFocus(panel, button, open, close);

  const { loading: billingBusy, error: billingError } = useBilling((s) => s.portal);
  const openPortal = useBilling((s) => s.openPortal);
  const clearBillingErrors = useBilling((s) => s.clearErrors);
  useEffect(() => {
    if (!open) clearBillingErrors();
  }, [open, clearBillingErrors]);

  // Spec §2: logging out says 'Cerrando sesión...' while the call runs, as the /logout page does.
  const [signingOut, setSigningOut] = useState(false);
  const signOut = async () => {
    setSigningOut(true);
    const samlChain = await logout(); // failures are only logged (spec §2)
    close();
    // SAML apps that take their logout through the browser first; that chain ends at /login.
    if (samlChain) leaveTo(samlChain);
    else navigate('/login', { replace: true });
  };

  const fullName = [user?.name, user?.lastName].filter(Boolean).join(' ');
  // A company's active owners and administrators manage it in the panel too, under their company's pages only.
  const panelLink = user?.role === ADMIN_ROLE ? '/admin' : managesCompany(user, undefined) ? '/admin/empresas' : null;
  // Only the identity providers' avatars, asked for without a referrer (@portal/shared users/picture).
  const picture = shownPicture(user?.picture);
  return (
    <Anchor ref={anchor}>
      <IconButton
        ref={button}
        aria-label="Menú de usuario"
        aria-expanded={open}
        aria-haspopup="true"
        onClick={() => setOpen(!open)}
      >
        {picture ? <img src={picture} alt="" referrerPolicy="no-referrer" /> : <PersonIcon />}
      </IconButton>
      {open && (
        <Panel ref={panel} $width={260} role="region" aria-label="Menú de usuario">
          {user && (
            <Who>
              <strong>{fullName || user.email}</strong>
              <span>{user.email}</span>
            </Who>
          )}
          <nav aria-label="Cuenta">
            <ItemLink to="/perfil" onClick={close}>
              Mi perfil
            </ItemLink>
            {billingEnabled() && (
              <ItemButton onClick={() => user && openPortal(user.id)} disabled={billingBusy}>
                Mi facturación
              </ItemButton>
            )}
            {billingError && <ErrorText role="alert">{billingError}</ErrorText>}
            <ItemLink to="/planes" onClick={close}>
              Planes
            </ItemLink>
            {panelLink && (
              <ItemLink to={panelLink} onClick={close}>
                Panel
              </ItemLink>
            )}
            <ItemButton onClick={signOut} disabled={signingOut} aria-live="polite">
              {signingOut ? 'Cerrando sesión...' : 'Cerrar sesión'}
            </ItemButton>
          </nav>
        </Panel>
      )}
    </Anchor>
  );
}
