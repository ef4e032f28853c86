import { useSession, type AdminUser, type User } from '@portal/shared';
import { type FakeApi, type startFakeApi, useFakeApi as startPortalFakeApi } from '@portal/shared/testing/fake-api';

export { renderAt } from '@portal/shared/testing/render';

export type { FakeApi };
type FakeRoutes = Parameters<typeof startFakeApi>[0];

/** The shared fake API, the session a signed-in user (an admin by default) or, with null, settled as anonymous. */
export async function useFakeApi(routes: FakeRoutes, user: User | null = adminUser()): Promise<FakeApi> {
  const api = await startPortalFakeApi(routes, { user });
  if (!user) useSession.setState({ isInitialized: true });
  return api;
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
    empresas: [],
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
  // `totalCapped` is the user list's; other lists ignore it.
  return {
    data,
    total,
    totalPages,
    currentPage,
    hasNextPage: currentPage < totalPages,
    count: data.length,
    totalCapped: false,
  };
}
