// An attacker who guesses passwords from elsewhere cannot lock the owner out
// (docs/decisions/0010-sign-in-locks-per-address.md). The owner uses the portal in Chromium (from 127.0.0.1); the
// attacker sends plain HTTP from other loopback addresses (127.0.0.x).
import { request as httpRequest } from 'node:http';
import type { Page } from '@playwright/test';
import { API_URL } from '../support/env';
import { expect, expectSignedInAs, person, registerActive, signInThroughForm, test } from '../support/auth';
import { SCREENS } from '../support/screens';

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

const PAUSE =
  /^Credenciales inválidas\. Por seguridad, los intentos desde este dispositivo están en pausa\. Podrás intentarlo de nuevo a las (\d\d:\d\d) \(en (\d+) (segundos?|minutos?)\)\./;

/** Five wrong passwords through the form: the fifth starts the pause, which the red box says. */
async function lockThroughForm(page: Page, email: string) {
  await page.goto('/login');
  const alert = page.getByRole('alert');
  for (let i = 0; i < 5; i++) {
    await signInThroughForm(page, email, `equivocada-${i}`);
    await expect(alert).toContainText('Credenciales inválidas');
  }
  await expect(alert).toHaveText(PAUSE);
  return alert;
}

test('a person who locked their own sign-in sees until when, and the way in without a password; an unknown address reads the same', async ({
  page,
  request,
}) => {
  const owner = person('bloqueo-propio');
  await registerActive(request, owner);

  const alert = await lockThroughForm(page, owner.email);
  await expect(page).toHaveURL(/\/login$/);
  const [, until, amount, unit] = PAUSE.exec((await alert.textContent()) ?? '') ?? [];
  // The lock's end in the browser's own clock: between a moment ago (when the answer came) and the time left said.
  const possible = await page.evaluate(
    (seconds) => {
      const label = (at: number) => {
        const end = new Date(at);
        return `${String(end.getHours()).padStart(2, '0')}:${String(end.getMinutes()).padStart(2, '0')}`;
      };
      const now = Date.now();
      const labels = new Set<string>();
      for (let at = now - 10_000; at < now + seconds * 1000; at += 5_000) labels.add(label(at));
      labels.add(label(now + seconds * 1000));
      return [...labels];
    },
    Number(amount) * (unit?.startsWith('minuto') ? 60 : 1),
  );
  expect(possible, 'the time said is when the lock ends').toContain(until);

  // The way in that needs no password: the reset code, from the message itself.
  await alert.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Recuperar contraseña' })).toBeVisible();

  // An address with no account gets the same words: the lock tells nobody which emails have an account.
  const unknown = await lockThroughForm(page, person('bloqueo-nadie').email);
  await expect(unknown.getByRole('link', { name: '¿Olvidaste tu contraseña?' })).toBeVisible();
});

for (const viewport of SCREENS) {
  test(`during a pause the button is off and shows the time left, whatever password is typed; it comes back when the pause ends (${viewport.width} px)`, async ({
    browser,
    request,
  }, testInfo) => {
    const owner = person(`pausa-${viewport.width}`);
    await registerActive(request, owner);
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    // The page's clock, moved on by the test: the pause ends without waiting for it.
    await page.clock.install();
    let sent = 0;
    page.on('request', (call) => {
      if (call.method() === 'POST' && call.url().endsWith('/auth/login')) sent += 1;
    });
    const alert = await lockThroughForm(page, owner.email);
    const paused = page.getByRole('button', { name: /^Inténtalo de nuevo en \d+:\d\d$/ });
    await expect(paused).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Iniciar Sesión', exact: true })).toHaveCount(0);
    const leftSaid = async () => {
      const [, minutes, seconds] = /(\d+):(\d\d)$/.exec((await paused.textContent()) ?? '') ?? [];
      return Number(minutes) * 60 + Number(seconds);
    };
    const left = await leftSaid();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(30);

    // The right password, typed during the pause, is not sent, and nothing on the page changes for it.
    const said = await alert.textContent();
    await page.getByLabel('Contraseña', { exact: true }).fill(owner.password);
    await page.getByLabel('Contraseña', { exact: true }).press('Enter');
    await expect(paused).toBeDisabled();
    await expect(alert).toHaveText(said ?? '');
    expect(sent).toBe(5);
    await page.screenshot({ path: testInfo.outputPath(`pausa-${viewport.width}.png`), fullPage: true });

    // It counts down, and when the pause is over the button is back.
    await page.clock.fastForward(5_000);
    await expect.poll(leftSaid).toBeLessThan(left);
    await page.clock.fastForward((left + 1) * 1000);
    const signIn = page.getByRole('button', { name: 'Iniciar Sesión', exact: true });
    await expect(signIn).toBeEnabled();
    await expect(page.getByRole('status').filter({ hasText: 'Ya puedes intentarlo de nuevo.' })).toBeVisible();
    await expect(alert).toHaveCount(0);
    await context.close();
  });
}
