import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { resetApiClient, resetSessionForTests, useSession, type AdminUser, type User } from '@portal/shared';
import { startFakeApi } from '@portal/shared/src/testing/fake-api';

export type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;
type Routes = Parameters<typeof startFakeApi>[0];

/** A fake API with these routes; the client points at it and the session is a signed-in user (an admin by default). */
export async function useFakeApi(routes: Routes, user: User | null = adminUser()): Promise<FakeApi> {
  const api = await startFakeApi(routes);
  window.__PORTAL_CONFIG__ = {
    apiBaseUrl: api.url,
    redirectAllowList: [],
    links: { campaignUrl: 'https://campaign.example.com', supportEmail: 'soporte@example.com' },
  };
  resetApiClient();
  localStorage.clear();
  resetSessionForTests();
  if (user) {
    localStorage.setItem('token', 'token-de-prueba');
    useSession.setState({ user, token: 'token-de-prueba', isAuthenticated: true, isInitialized: true });
  } else {
    useSession.setState({ isInitialized: true });
  }
  return api;
}

export function renderAt(path: string, ui: ReactElement) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="*" element={ui} />
      </Routes>
    </MemoryRouter>,
  );
}

/** The query of each recorded request to `path`, as an object. */
export function queriesTo(api: FakeApi, path: string): Record<string, string>[] {
  return api.requests
    .filter((request) => request.path.split('?')[0] === path)
    .map((request) => Object.fromEntries(new URLSearchParams(request.path.split('?')[1] ?? '')));
}

export function bodiesTo(api: FakeApi, path: string): unknown[] {
  return api.requests
    .filter((request) => request.path.split('?')[0] === path)
    .map((request) => JSON.parse(request.body || 'null'));
}

export function adminUser(overrides: Partial<User> = {}): User {
  return {
    id: 1,
    email: 'admin@portal.test',
    name: 'Administrador',
    lastName: '',
    phone: '',
    picture: null,
    role: 1,
    presentacion: false,
    planesUsuarios: [],
    status: 'active',
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function listedUser(id: number, overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id,
    email: `usuario${id}@example.com`,
    name: 'Usuario',
    lastName: String(id),
    phone: '',
    picture: null,
    role: 2,
    status: 'active',
    createdAt: '2026-03-05T12:00:00.000Z',
    ...overrides,
  };
}

export function page<T>(data: T[], total: number, currentPage: number, limit: number) {
  const totalPages = Math.ceil(total / limit);
  return { data, total, totalPages, currentPage, hasNextPage: currentPage < totalPages, count: data.length };
}
