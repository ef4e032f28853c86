// A second registration of an email still pending must never decide the password of the person who verifies it. The
// victim registers and verifies in Chromium, reading the code from their inbox (the SMTP sink); the attacker registers
// the same address with plain HTTP calls, before or after, inside the 60 s code-mail cooldown. Afterwards the victim's
// password signs in and the attacker's never does. The same orders past the cooldown (a second code mailed) are
// api/test/registration-takeover.test.ts's, whose clock that test moves: no browser test moves the running product's
// clock, and what the page does is the same inside the cooldown and past it (decision 0167).
import type { Page } from '@playwright/test';
import { API_URL } from '../support/env';
import {
  codeFromMail,
  expect,
  person,
  registerThroughForm,
  test,
  VERIFICATION_SUBJECT,
  type Person,
} from '../support/auth';

/** The attacker: a plain HTTP client of the API, nothing shared with the victim's browser. */
async function attackerRegisters(email: string): Promise<{ status: number; registrationId?: string }> {
  const response = await fetch(`${API_URL}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email,
      password: 'Clave-del-atacante-1',
      name: 'Atacante',
      lastName: 'Malo',
      phone: '+51911111111',
    }),
  });
  return { status: response.status, ...((await response.json()) as { registrationId?: string }) };
}

async function signInStatus(email: string, password: string): Promise<number> {
  const response = await fetch(`${API_URL}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return response.status;
}

/** The victim types the newest code of their inbox (mailed after `since`) and is signed in on /apps. */
async function victimVerifies(page: Page, who: Person, since: number): Promise<void> {
  const code = await codeFromMail(who.email, VERIFICATION_SUBJECT, since);
  await page.getByLabel('Código de verificación').fill(code);
  await page.getByRole('button', { name: 'Verificar código' }).click();
  await expect(page).toHaveURL(/\/apps$/);
}

/** What the victim must end with: their own password and profile; the attacker's password refused, now and later. */
async function expectVictimOwnsTheAccount(page: Page, who: Person): Promise<void> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const me = await fetch(`${API_URL}/auth/user`, { headers: { authorization: `Bearer ${token}` } });
  expect(me.status).toBe(200);
  expect(await me.json()).toMatchObject({
    email: who.email,
    name: who.name,
    lastName: who.lastName,
    phone: '+51987654321',
    status: 'active',
  });
  expect(await signInStatus(who.email, who.password)).toBe(200);
  expect(await signInStatus(who.email, 'Clave-del-atacante-1')).toBe(401);
  // Registering again is over for the attacker: the address is active.
  expect((await attackerRegisters(who.email)).status).toBe(409);
  expect(await signInStatus(who.email, 'Clave-del-atacante-1')).toBe(401);
  // And the victim signs in through the form with their password.
  await page.goto('/logout');
  // Opened from an address, /logout asks first (a link alone signs nobody out).
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Iniciar Sesión', exact: true }).click();
  await expect(page).toHaveURL(/\/apps$/);
}

const victim = (label: string): Person => ({ ...person(label), name: 'Valeria', lastName: 'Rojas' });

test('victim first, attacker inside the cooldown: the victim keeps their password', async ({ page }) => {
  const who = victim('victima-primero');
  const since = Date.now() - 1000;
  await registerThroughForm(page, who);
  expect((await attackerRegisters(who.email)).status).toBe(201);
  await victimVerifies(page, who, since);
  await expectVictimOwnsTheAccount(page, who);
});

test('attacker first, victim inside the cooldown (no new mail): the victim gets their own password', async ({
  page,
}) => {
  const who = victim('atacante-primero');
  const since = Date.now() - 1000;
  expect((await attackerRegisters(who.email)).status).toBe(201);
  await registerThroughForm(page, who);
  await victimVerifies(page, who, since);
  await expectVictimOwnsTheAccount(page, who);
});

test("the mail's link opened in a new tab of the same browser activates the victim's password", async ({
  page,
  context,
}) => {
  const who = victim('victima-enlace');
  const since = Date.now() - 1000;
  await registerThroughForm(page, who);
  expect((await attackerRegisters(who.email)).status).toBe(201);
  const code = await codeFromMail(who.email, VERIFICATION_SUBJECT, since);
  const tab = await context.newPage();
  await tab.goto(`/verify-email?email=${encodeURIComponent(who.email)}`);
  await tab.getByLabel('Código de verificación').fill(code);
  await tab.getByRole('button', { name: 'Verificar código' }).click();
  await expect(tab).toHaveURL(/\/apps$/);
  await expectVictimOwnsTheAccount(tab, who);
});

test("a code typed in a browser that holds no registration gives the account the password typed there, never the attacker's", async ({
  page,
}) => {
  const who = victim('sin-registro');
  const since = Date.now() - 1000;
  expect((await attackerRegisters(who.email)).status).toBe(201);
  // The victim only follows the mail's link (spec: the verification page): the page asks, beside the code, for what
  // registration asks, since this browser made no registration.
  await page.goto(`/verify-email?email=${encodeURIComponent(who.email)}`);
  await page.getByLabel('Código de verificación').fill(await codeFromMail(who.email, VERIFICATION_SUBJECT, since));
  await page.getByLabel('Nombre').fill(who.name);
  await page.getByLabel('Apellido').fill(who.lastName);
  await page.getByLabel('Teléfono', { exact: true }).fill('987 654 321');
  await page.getByLabel('Contraseña', { exact: true }).fill(who.password);
  await page.getByLabel('Confirmar contraseña').fill(who.password);
  await page.getByRole('button', { name: 'Verificar código' }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await expectVictimOwnsTheAccount(page, who);
});
