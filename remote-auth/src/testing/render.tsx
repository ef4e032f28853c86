import { user as sharedUser } from '@portal/shared/src/testing/fixtures';
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { resetApiClient, resetSessionForTests, type User } from '@portal/shared';
import { startFakeApi } from '@portal/shared/src/testing/fake-api';

/** Shows the current path so tests can assert where a click or a redirect sent the person. */
export function LocationProbe() {
  const { pathname, search, state } = useLocation();
  return (
    <>
      <div data-testid="location">{pathname + search}</div>
      <div data-testid="location-state">{state ? JSON.stringify(state) : ''}</div>
    </>
  );
}

/** Renders a page at an address, the way the host's router would; `state` is the navigation state. */
export function renderAt(path: string, ui: ReactElement, state?: unknown) {
  return render(
    <MemoryRouter
      initialEntries={[
        { pathname: path.split('?')[0], search: path.includes('?') ? `?${path.split('?')[1]}` : '', state },
      ]}
    >
      <Routes>
        <Route path="*" element={ui} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
}

export type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;

export const ALLOW_LIST = ['https://portal.example.com', 'https://*.portal.example.com', 'betopro://auth/success'];

/** Starts a fake API with these routes and points the client at it; the session starts anonymous. */
export async function useFakeApi(routes: Parameters<typeof startFakeApi>[0]): Promise<FakeApi> {
  const api = await startFakeApi(routes);
  window.__PORTAL_CONFIG__ = {
    apiBaseUrl: api.url,
    redirectAllowList: ALLOW_LIST,
    links: { campaignUrl: 'https://campaign.example.com', supportEmail: 'privacidad@portal.example.com' },
  };
  resetApiClient();
  localStorage.clear();
  resetSessionForTests();
  return api;
}

export function bodyOf(api: FakeApi, path: string): unknown {
  const request = api.requests.find((r) => r.path.split('?')[0] === path);
  return request ? JSON.parse(request.body || 'null') : undefined;
}

/** The shared test user, with the phone the profile form shows. */
export function user(overrides: Partial<User> = {}): User {
  return sharedUser({ phone: '+51 987654321', ...overrides });
}
