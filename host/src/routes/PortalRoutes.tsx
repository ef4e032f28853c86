import { useEffect, type ReactNode } from 'react';
import { matchPath, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { useSession } from '@portal/shared';
import { RemotePage } from '../federation/RemotePage';
import { Guarded } from '../guards/Guarded';
import { TopBar } from '../layout/TopBar';
import { NotFoundPage } from '../pages/NotFoundPage';
import { ADMIN_LAYOUT, ROUTES, tabTitle, type Layout } from './route-table';

/** Names the browser tab after the page ('Iniciar sesión · Portal'), so tabs and history tell pages apart. */
function Titled({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = tabTitle(title);
  }, [title]);
  return <>{children}</>;
}

function TopBarLayout() {
  return (
    <>
      <TopBar />
      <Outlet />
    </>
  );
}

/** The not-found page sits under the top bar for signed-in people, bare for everyone else. */
function NotFoundRoute() {
  const signedIn = useSession((s) => s.isAuthenticated && s.user !== null);
  return (
    <Titled title="Página no encontrada">
      {signedIn ? (
        <>
          <TopBar />
          <NotFoundPage />
        </>
      ) : (
        <NotFoundPage />
      )}
    </Titled>
  );
}

function routesOf(layout: Layout) {
  return ROUTES.filter((route) => route.layout === layout).map((route) => (
    <Route
      key={route.path}
      path={route.path}
      element={
        <Titled title={route.title}>
          <Guarded guard={route.guard}>
            <RemotePage remote={route.remote} module={route.module} />
          </Guarded>
        </Titled>
      }
    />
  ));
}

/**
 * The admin panel's frame, under the guard of the admin route in the address: a company's managers reach the frame
 * only on their company's pages.
 */
function AdminFrame() {
  const { pathname } = useLocation();
  const route = ROUTES.find((entry) => entry.layout === 'admin' && matchPath(entry.path, pathname));
  return (
    <Guarded guard={route?.guard ?? 'admin'}>
      <RemotePage remote={ADMIN_LAYOUT.remote} module={ADMIN_LAYOUT.module} />
    </Guarded>
  );
}

/** Renders the URL table of route-table.ts. */
export function PortalRoutes() {
  return (
    <Routes>
      {routesOf('bare')}
      <Route element={<TopBarLayout />}>{routesOf('topbar')}</Route>
      <Route element={<AdminFrame />}>{routesOf('admin')}</Route>
      <Route path="*" element={<NotFoundRoute />} />
    </Routes>
  );
}
