import { Outlet, Route, Routes } from 'react-router-dom';
import { useSession } from '@portal/shared';
import { RemotePage } from '../federation/RemotePage';
import { Guarded } from '../guards/Guarded';
import { TopBar } from '../layout/TopBar';
import { NotFoundPage } from '../pages/NotFoundPage';
import { ADMIN_LAYOUT, ROUTES, type Layout } from './route-table';

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
  return signedIn ? (
    <>
      <TopBar />
      <NotFoundPage />
    </>
  ) : (
    <NotFoundPage />
  );
}

function routesOf(layout: Layout) {
  return ROUTES.filter((route) => route.layout === layout).map((route) => (
    <Route
      key={route.path}
      path={route.path}
      element={
        <Guarded guard={route.guard}>
          <RemotePage remote={route.remote} module={route.module} />
        </Guarded>
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
