// The authenticator app of a person, as the browser specs play it: codes computed from the secret, and the app set up
// through the API from a session of its own (the browser's session proves nothing by it).
import { expect, type APIRequestContext } from '@playwright/test';
import { generate } from 'otplib';
import type { Person } from './auth';
import { API_URL } from './env';

/** The code an authenticator app shows `offset` steps of 30 s from now (the API accepts one step either side). */
export function codeAt(secret: string, offset = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });
}

/** Sets up the person's authenticator app from another session; its secret. This step's code went to the setup. */
export async function totpElsewhere(request: APIRequestContext, who: Person): Promise<string> {
  const login = await request.post(`${API_URL}/auth/login`, { data: { email: who.email, password: who.password } });
  expect(login.status()).toBe(200);
  const headers = { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
  const setup = await request.post(`${API_URL}/auth/totp`, { headers });
  expect(setup.status()).toBe(200);
  const { secret } = (await setup.json()) as { secret: string };
  const confirmed = await request.post(`${API_URL}/auth/totp/confirmar`, {
    headers,
    data: { code: await codeAt(secret) },
  });
  expect(confirmed.status()).toBe(200);
  return secret;
}
