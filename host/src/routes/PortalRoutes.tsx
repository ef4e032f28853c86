import { useEffect, type ReactNode } from 'react';
import { Outlet, Route, Routes } from 'react-router-dom';
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

/** Renders the URL table of route-table.ts. */
export function PortalRoutes() {
  return (
    <Routes>
      {routesOf('bare')}
      <Route element={<TopBarLayout />}>{routesOf('topbar')}</Route>
      <Route
        element={
          <Guarded guard="admin">
            <RemotePage remote={ADMIN_LAYOUT.remote} module={ADMIN_LAYOUT.module} />
          </Guarded>
        }
      >
        {routesOf('admin')}
      </Route>
      <Route path="*" element={<NotFoundRoute />} />
    </Routes>
  );
}
