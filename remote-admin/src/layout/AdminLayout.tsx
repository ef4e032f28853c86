import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import styled from 'styled-components';
import {
  Button,
  focusableIn,
  NoticeCard,
  Spinner,
  TEXT,
  theme,
  useMenuFocus,
  useSession,
  leaveTo,
} from '@portal/shared';
import { Avatar } from '../components/Avatar';
import { isPlatformAdmin, managedCompanies } from '../rules/companies';
import { TEXT_ADMIN } from '../texts';
import { GateCard, useSecondFactorGate } from './SecondFactorGate';
import { TEXT_LAYOUT } from './texts';

const Frame = styled.div`
  display: flex;
  min-height: 100vh;
  background: ${theme.color.background};
`;

const Side = styled.aside<{ $open: boolean }>`
  flex: 0 0 240px;
  display: flex;
  flex-direction: column;
  gap: 16px;
  padding: 20px 16px;
  background: #0f172a;
  color: #e2e8f0;
  @media (max-width: ${theme.breakpoint.mobile}) {
    position: fixed;
    inset: 0 auto 0 0;
    width: 260px;
    z-index: 200;
    transform: translateX(${(p) => (p.$open ? '0' : '-100%')});
    visibility: ${(p) => (p.$open ? 'visible' : 'hidden')};
    transition: transform 0.2s ease, visibility 0.2s;
  }
`;

const Profile = styled.div`
  display: flex;
  align-items: center;
  gap: 12px;
  padding-bottom: 16px;
  border-bottom: 1px solid #334155;
  img, .avatar {
    width: 44px;
    height: 44px;
    border-radius: 50%;
    object-fit: cover;
    flex: none;
  }
  .avatar {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    background: ${theme.color.primary};
    color: #fff;
    font-weight: 700;
  }
  strong { display: block; color: #fff; }
  span.role { font-size: 0.85rem; color: #cbd5e1; }
`;

const Nav = styled.nav`
  display: flex;
  flex-direction: column;
  gap: 4px;
  a {
    display: flex;
    align-items: center;
    min-height: 44px;
    padding: 0 12px;
    border-radius: 8px;
    color: #e2e8f0;
    text-decoration: none;
    font-weight: 600;
  }
  a:hover { background: #1e293b; }
  a[aria-current='page'] { background: ${theme.color.primary}; color: #fff; }
  a:focus-visible { outline: 3px solid #93c5fd; outline-offset: 2px; }
`;

const Footer = styled.div`
  margin-top: auto;
  display: flex;
  flex-direction: column;
  gap: 8px;
  a {
    display: flex;
    align-items: center;
    min-height: 44px;
    padding: 0 12px;
    color: #e2e8f0;
    border-radius: 8px;
  }
  a:focus-visible { outline: 3px solid #93c5fd; outline-offset: 2px; }
`;

const Main = styled.div`
  flex: 1;
  min-width: 0;
  display: flex;
  flex-direction: column;
`;

const MobileBar = styled.div`
  display: none;
  @media (max-width: ${theme.breakpoint.mobile}) {
    display: flex;
    align-items: center;
    gap: 12px;
    padding: 8px 12px;
    background: ${theme.color.surface};
    border-bottom: 1px solid ${theme.color.border};
    position: sticky;
    top: 0;
    z-index: 150;
  }
`;

interface NavItem {
  to: string;
  paths: string[];
  label: string;
}

const NAV: NavItem[] = [
  { to: '/admin/usuarios', paths: ['/admin', '/admin/usuarios'], label: TEXT_LAYOUT.users },
  { to: '/admin/dashboard', paths: ['/admin/dashboard'], label: TEXT_LAYOUT.dashboard },
  { to: '/admin/apps', paths: ['/admin/apps'], label: TEXT_ADMIN.apps },
  { to: '/admin/empresas', paths: ['/admin/empresas'], label: TEXT_LAYOUT.navCompanies },
];

/** A company's owners and administrators see their company only (the page sends them on to it). */
const COMPANY_NAV: NavItem[] = [{ to: '/admin/empresas', paths: ['/admin/empresas'], label: TEXT_LAYOUT.navCompany }];

/** Whether a link is the page shown: its own paths, and for 'Empresas' each company's page under it. */
const isCurrent = (item: NavItem, pathname: string) =>
  item.paths.includes(pathname) || (item.to === '/admin/empresas' && pathname.startsWith('/admin/empresas/'));

const Scrim = styled.div`
  display: none;
  @media (max-width: ${theme.breakpoint.mobile}) {
    display: block;
    position: fixed;
    inset: 0;
    z-index: 190;
    background: rgba(15, 23, 42, 0.45);
  }
`;

const CloseRow = styled.div`
  display: none;
  @media (max-width: ${theme.breakpoint.mobile}) {
    display: flex;
    justify-content: flex-end;
    button { color: #e2e8f0; }
    button:hover:not(:disabled) { background: #1e293b; }
  }
`;

/**
 * The admin panel's frame (spec §2 'Admin panel layout'): side panel, and the page in react-router's Outlet. An
 * administrator who must prove a second factor and did not in this session gets the gate's card in its place
 * (docs/decisions/0017-second-factor.md).
 */
export default function AdminLayout() {
  const user = useSession((s) => s.user);
  const initialized = useSession((s) => s.isInitialized);
  const logout = useSession((s) => s.logout);
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const side = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);
  const platform = isPlatformAdmin(user);
  const { state: gate, retry } = useSecondFactorGate(platform);

  // On small screens the panel closes once a link is followed.
  useEffect(() => setOpen(false), [location.pathname]);
  // Opened (phone), the panel takes the focus, keeps Tab inside, and Escape gives the focus back to 'Abrir menú'.
  useMenuFocus(side, menuButton, open, close);
  useEffect(() => {
    if (open && side.current) focusableIn(side.current)[0]?.focus();
  }, [open]);

  if (!user && !initialized) return <Spinner label={TEXT.loading} />;
  // The host's guard decides first; standalone, this is the only check (the API refuses non-admins anyway). A
  // company's owner or administrator gets the frame with their company only.
  if (!user || (!platform && managedCompanies(user).length === 0)) {
    return (
      <NoticeCard title={TEXT.accessDenied} detail={TEXT.accessDeniedDetail}>
        <Link to="/">{TEXT_LAYOUT.goHome}</Link>
      </NoticeCard>
    );
  }

  const name = [user.name, user.lastName].filter(Boolean).join(' ').trim() || TEXT_LAYOUT.adminFallbackName;
  const signOut = async () => {
    // SAML apps that take their logout through the browser first; that chain ends at /login.
    leaveTo((await logout()) ?? '/login');
  };

  return (
    <Frame>
      {open && <Scrim aria-hidden="true" onClick={() => setOpen(false)} />}
      <Side ref={side} id="admin-side-panel" $open={open}>
        <CloseRow>
          <Button
            $variant="ghost"
            onClick={() => {
              setOpen(false);
              menuButton.current?.focus();
            }}
          >
            {TEXT_LAYOUT.closeMenu}
          </Button>
        </CloseRow>
        <Profile>
          <Avatar picture={user.picture} name={name} letterClass="avatar" />
          <div>
            <strong>{name}</strong>
            <span className="role">{platform ? TEXT_LAYOUT.adminLabel : TEXT_LAYOUT.companyManagerLabel}</span>
          </div>
        </Profile>
        <Nav aria-label={TEXT_LAYOUT.panelNav}>
          {(platform ? NAV : COMPANY_NAV).map((item) => (
            <Link key={item.to} to={item.to} aria-current={isCurrent(item, location.pathname) ? 'page' : undefined}>
              {item.label}
            </Link>
          ))}
        </Nav>
        <Footer>
          <Link to="/">{TEXT_LAYOUT.goHome}</Link>
          <Button $variant="secondary" onClick={signOut}>
            {TEXT_LAYOUT.logout}
          </Button>
        </Footer>
      </Side>
      <Main>
        <MobileBar>
          <Button
            ref={menuButton}
            $variant="ghost"
            aria-expanded={open}
            aria-controls="admin-side-panel"
            onClick={() => setOpen((value) => !value)}
          >
            <span aria-hidden="true">☰</span> {TEXT_LAYOUT.openMenu}
          </Button>
        </MobileBar>
        {!platform || (gate.kind === 'ready' && gate.gate === null) ? (
          <Outlet />
        ) : (
          <GateCard state={gate} retry={retry} signOut={signOut} />
        )}
      </Main>
    </Frame>
  );
}
