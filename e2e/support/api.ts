// The portal's API as the specs call it to set a scene up: with a bearer token, the status checked (the body in the
// message when it is not the expected one).
import type { APIRequestContext } from '@playwright/test';
import { expect } from '@playwright/test';
import { API_URL } from './env';

/** A call to the API as whoever holds `token`, answering the parsed body (none for a 204). */
export async function call<T>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  expected: number,
  data?: unknown,
): Promise<T> {
  const response = await request.fetch(`${API_URL}/${url}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(data === undefined ? {} : { data }),
  });
  const text = await response.text();
  expect(response.status(), `${method} /${url}: ${text}`).toBe(expected);
  return (text ? JSON.parse(text) : undefined) as T;
}
