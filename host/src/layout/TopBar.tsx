import { Link, useLocation } from 'react-router-dom';
import styled from 'styled-components';
import { activeNavItem, LogoMark, theme, VisuallyHidden } from '@portal/shared';
import { AppsLauncher } from './AppsLauncher';
import { AvatarMenu } from './AvatarMenu';

const Bar = styled.header`
  position: sticky;
  top: 0;
  z-index: 100;
  display: flex;
  align-items: center;
  gap: 12px;
  min-height: 60px;
  padding: 0 16px;
  background: ${theme.color.surface};
  border-bottom: 1px solid ${theme.color.border};
`;

const Logo = styled(Link)`
  display: inline-flex;
  align-items: center;
  gap: 8px;
  min-height: 44px;
  color: ${theme.color.text};
  font-weight: 800;
  font-size: 1.1rem;
  text-decoration: none;
`;

const Nav = styled.nav`
  display: flex;
  gap: 4px;
  margin-left: 8px;
  @media (max-width: ${theme.breakpoint.mobile}) { display: none; }
`;

const NavLink = styled(Link)`
  display: inline-flex;
  align-items: center;
  min-height: 44px;
  padding: 0 12px;
  border-radius: 8px;
  color: ${theme.color.text};
  text-decoration: none;
  font-weight: 600;
  &[aria-current='page'] { color: ${theme.color.primary}; background: ${theme.color.infoBg}; }
`;

const Spacer = styled.div`
  flex: 1;
`;

/** Top navigation entries; the active one comes from the first path segment (spec §2). */
const NAV_ITEMS = [
  { key: 'apps', label: 'Aplicaciones', to: '/apps' },
  { key: 'planes', label: 'Planes', to: '/planes' },
] as const;

/** Spec §2: the sticky top bar of the user area: logo to /, apps launcher, avatar menu. */
export function TopBar() {
  const active = activeNavItem(useLocation().pathname);
  return (
    <Bar>
      <Logo to="/">
        <LogoMark />
        <span>Portal</span>
        <VisuallyHidden>: inicio</VisuallyHidden>
      </Logo>
      <Nav aria-label="Navegación principal">
        {NAV_ITEMS.map((item) => (
          <NavLink key={item.key} to={item.to} aria-current={active === item.key ? 'page' : undefined}>
            {item.label}
          </NavLink>
        ))}
      </Nav>
      <Spacer />
      <AppsLauncher />
      <AvatarMenu />
    </Bar>
  );
}
