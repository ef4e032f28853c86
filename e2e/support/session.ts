import type { APIRequestContext, Page } from '@playwright/test';
import { API_URL, E2E } from './env';

/**
 * Signs in through the real API (or the one at `apiUrl`, a test's own) and puts the token where the portal keeps it,
 * before any page script runs.
 */
export async function signInAs(
  page: Page,
  request: APIRequestContext,
  email: string,
  password: string,
  apiUrl = API_URL,
): Promise<string> {
  const response = await request.post(`${apiUrl}/auth/login`, { data: { email, password } });
  if (!response.ok()) throw new Error(`login failed: ${response.status()} ${await response.text()}`);
  const { access_token: token } = (await response.json()) as { access_token: string };
  await page.addInitScript((value) => window.localStorage.setItem('token', value), token);
  return token;
}

export function signInAsAdmin(page: Page, request: APIRequestContext, apiUrl = API_URL): Promise<string> {
  return signInAs(page, request, E2E.adminEmail, E2E.adminPassword, apiUrl);
}
