// An attacker who guesses passwords from elsewhere cannot lock the owner out
// (docs/decisions/0010-sign-in-locks-per-address.md). The owner uses the portal in Chromium (from 127.0.0.1); the
// attacker sends plain HTTP from other loopback addresses (127.0.0.x).
import { request as httpRequest } from 'node:http';
import { API_URL } from '../support/env';
import { expect, expectSignedInAs, person, registerActive, signInThroughForm, test } from '../support/auth';

interface Answer {
  status: number;
  retryAfter: number;
}

/** POST /auth/login sent from `from` (a loopback address of this machine other than the browser's). */
function signInFrom(from: string, email: string, password: string): Promise<Answer> {
  const body = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      `${API_URL}/auth/login`,
      {
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, retryAfter: Number(response.headers['retry-after'] ?? 0) }),
        );
      },
    );
    call.on('error', reject);
    call.end(body);
  });
}

const attacker = '127.0.0.2';

test('an attacker guessing from another address locks only that address: the owner signs in through the form', async ({
  page,
  request,
}) => {
  const owner = person('bloqueo');
  await registerActive(request, owner);

  for (let i = 0; i < 6; i++) expect((await signInFrom(attacker, owner.email, 'adivinanza-1')).status).toBe(401);
  const locked = await signInFrom(attacker, owner.email, owner.password);
  expect(locked.status, 'the guessing address is locked even with the right password').toBe(401);
  expect(locked.retryAfter).toBeGreaterThan(0);

  await page.goto('/login');
  await signInThroughForm(page, owner.email, owner.password);
  await expect(page).toHaveURL(/\/apps$/);
  await expectSignedInAs(page, request, owner.email);

  // The other order: the owner signs out while the attacker keeps guessing, and signs in again.
  await page.goto('/logout');
  // Opened from an address, /logout asks first (a link alone signs nobody out).
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await signInFrom(attacker, owner.email, 'adivinanza-2')).status).toBe(401);
  await signInThroughForm(page, owner.email, owner.password);
  await expect(page).toHaveURL(/\/apps$/);
});

test("guessing spread over many addresses meets the account throttle; the owner's browser, known to the account, still signs in", async ({
  page,
  request,
}) => {
  const owner = person('distribuido');
  await registerActive(request, owner);
  await page.goto('/login');
  await signInThroughForm(page, owner.email, owner.password);
  await expect(page).toHaveURL(/\/apps$/);
  await page.goto('/logout');
  // Opened from an address, /logout asks first (a link alone signs nobody out).
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);

  let throttled = false;
  for (let i = 10; i < 50 && !throttled; i++) {
    const answer = await signInFrom(`127.0.0.${i}`, owner.email, 'adivinanza');
    expect(answer.status).toBe(401);
    throttled = answer.retryAfter > 0;
  }
  expect(throttled, 'the account throttle starts before 40 addresses have guessed').toBe(true);
  const stranger = await signInFrom('127.0.0.99', owner.email, owner.password);
  expect(stranger.status, 'an address the account never saw waits out the throttle').toBe(401);

  await signInThroughForm(page, owner.email, owner.password);
  await expect(page).toHaveURL(/\/apps$/);
  await expectSignedInAs(page, request, owner.email);
});
