import { matchPath } from 'react-router-dom';
import { isTokenValid, readToken, useApps } from '@portal/shared';
import { ROUTES } from './route-table';

/** The data a page shows, by the module that renders it, that the shell can ask for before the page arrives. */
const PAGE_DATA: Record<string, () => Promise<void>> = {
  './AppsPage': () => useApps.getState().ensureLoaded(),
};

/**
 * Start-up: with a stored token that has not expired, the data of the page asked for is requested at once, in
 * parallel with /auth/user and the remote's files, instead of after them (docs/architecture.md, "Build and serving"). A token the
 * API refuses ends the session as on any other call.
 */
export function prefetchPageData(pathname: string): void {
  if (!isTokenValid(readToken())) return;
  const route = ROUTES.find((r) => matchPath(r.path, pathname));
  const load = route && PAGE_DATA[route.module];
  if (load) void load();
}
