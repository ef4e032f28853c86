import { type APIRequestContext, test as base, expect } from '@playwright/test';
import { API_URL } from './env';

/** Fields of a catalogue app a test may change through `PUT /apps/update/:id`. */
type AppChange = Record<string, unknown>;

/**
 * The fixture `changeApp(token, id, change)`: a catalogue app changed for one test and given back afterwards. The catalogue is
 * shared by every spec that runs against the same product, so the app is put back in the fixture's teardown, which
 * runs even when the test failed or ran out of time; a `finally` inside the test does not (a timed-out test's request
 * context is closed under it, and the next spec would meet the changed app).
 */
export type ChangeApp = (token: string, id: number, change: AppChange) => Promise<void>;

export const test = base.extend<{ changeApp: ChangeApp }>({
  changeApp: async ({ playwright }, use) => {
    // A request context of the fixture's own: the test's `request` may already be closed when this one gives back.
    const request: APIRequestContext = await playwright.request.newContext();
    const restores: (() => Promise<void>)[] = [];
    await use(async (token, id, change) => {
      const headers = { Authorization: `Bearer ${token}` };
      const before = (await (await request.get(`${API_URL}/apps/obtener-por-id/${id}`)).json()) as AppChange;
      const back = Object.fromEntries(Object.keys(change).map((field) => [field, before[field]]));
      restores.unshift(async () => {
        const answer = await request.put(`${API_URL}/apps/update/${id}`, { headers, data: back });
        expect(answer.status(), `app ${id} given back`).toBe(200);
      });
      const answer = await request.put(`${API_URL}/apps/update/${id}`, { headers, data: change });
      expect(answer.status(), `app ${id} changed for the test`).toBe(200);
    });
    for (const restore of restores) await restore();
    await request.dispose();
  },
});

export { expect };
