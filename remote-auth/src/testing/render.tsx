import { user as sharedUser } from '@portal/shared/testing/fixtures';
import type { User } from '@portal/shared';
import { type FakeApi, type startFakeApi, useFakeApi as startPortalFakeApi } from '@portal/shared/testing/fake-api';

export { LocationProbe, renderAt } from '@portal/shared/testing/render';

export type { FakeApi };

export const ALLOW_LIST = ['https://portal.example.com', 'https://*.portal.example.com', 'betopro://auth/success'];

/** The shared fake API with remote-auth's allow-list; the session starts anonymous. */
export function useFakeApi(routes: Parameters<typeof startFakeApi>[0]): Promise<FakeApi> {
  return startPortalFakeApi(routes, { allowList: ALLOW_LIST, supportEmail: 'privacidad@portal.example.com' });
}

export function bodyOf(api: FakeApi, path: string): unknown {
  const request = api.requests.find((r) => r.path.split('?')[0] === path);
  return request ? JSON.parse(request.body || 'null') : undefined;
}

/** The shared test user, with the phone the profile form shows. */
export function user(overrides: Partial<User> = {}): User {
  return sharedUser({ phone: '+51987654321', ...overrides });
}
