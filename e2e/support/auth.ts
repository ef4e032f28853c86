// Fixtures and helpers of the sign-in specs (tests/auth-*.spec.ts): the SMTP sink and a partner app run for the whole
// worker; people register and verify through the real API and read their codes from the sink's folder.
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { API_URL, E2E, MAIL_DIR, PARTNER_URL } from './env';
import { startMailSink, waitForCode } from './mail-sink';
import { startPartnerApp } from './partner-app';

export const VERIFICATION_SUBJECT = /verificación/i;
export const RESET_SUBJECT = /contraseña/i;

export const test = base.extend<object, { servers: { partnerUrl: string } }>({
  servers: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; it has none.
    async ({}, use) => {
      const sink = await startMailSink(E2E.smtpPort, MAIL_DIR);
      const partner = await startPartnerApp(E2E.partnerPort);
      await use({ partnerUrl: PARTNER_URL });
      await Promise.all([sink.close(), partner.close()]);
    },
    { scope: 'worker', auto: true },
  ],
});

export { expect };

let counter = 0;
/** A fresh address per test: codes, cooldowns and lockouts are per account. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}@e2e.portal.test`;
}

export function codeFromMail(email: string, subject: RegExp, after = 0): Promise<string> {
  return waitForCode(MAIL_DIR, email, subject, after);
}

export interface Person {
  email: string;
  password: string;
  name: string;
  lastName: string;
}

export function person(label: string): Person {
  return { email: uniqueEmail(label), password: 'Clave-e2e-1', name: 'Lucía', lastName: 'Quispe' };
}

/**
 * Registers through the API and leaves the account pending verification (its code is in the sink); answers the
 * registration's id, which makes its password the account's when sent with the code.
 */
export async function registerPending(request: APIRequestContext, who: Person): Promise<string> {
  const response = await request.post(`${API_URL}/auth/register`, {
    data: { email: who.email, password: who.password, name: who.name, lastName: who.lastName, phone: '+51987654321' },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { registrationId: string }).registrationId;
}

/** Registers and verifies through the API: an active account with its free plans and its password. */
export async function registerActive(request: APIRequestContext, who: Person): Promise<void> {
  const since = Date.now() - 1000;
  const registrationId = await registerPending(request, who);
  const code = await codeFromMail(who.email, VERIFICATION_SUBJECT, since);
  const response = await request.post(`${API_URL}/auth/verify-registration`, {
    data: { email: who.email, code, registrationId },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * Fills both steps of /register as a person would (Peru, the default country, and a Peruvian mobile, stored as
 * +51987654321) and creates the account: the browser lands
 * on the verification page. A pending address that this browser did not register still gets step 2.
 */
export async function registerThroughForm(page: Page, who: Person): Promise<void> {
  await page.goto('/register');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Nombre').fill(who.name);
  await page.getByLabel('Apellido').fill(who.lastName);
  await page.getByLabel('Teléfono', { exact: true }).fill('987 654 321');
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByText('Paso 2 de 2')).toBeVisible();
  await page.getByLabel('Contraseña', { exact: true }).fill(who.password);
  await page.getByLabel('Confirmar contraseña').fill(who.password);
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page).toHaveURL(/\/verify-email\?email=/);
}

/**
 * Waits until the page on screen is React's, not the build's prerendered markup of /login or /register (the shell takes
 * the mark off `#root` then: host/src/render.tsx). At an address with a query that markup is replaced, and a field
 * Playwright fills in two steps (focus, then the text) could lose its text to the swap; a person's keystroke cannot
 * be split like that, and what they typed before is carried over (e2e/tests/prerender.spec.ts).
 */
export async function portalReady(page: Page): Promise<void> {
  await expect(page.locator('#root[data-prerendered]')).toHaveCount(0);
}

export async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await portalReady(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Iniciar Sesión', exact: true }).click();
}

/** The session the portal keeps: the stored token works against the real API and belongs to this email. */
export async function expectSignedInAs(page: Page, request: APIRequestContext, email: string): Promise<void> {
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem('token'))).not.toBeNull();
  const token = await page.evaluate(() => window.localStorage.getItem('token'));
  const response = await request.get(`${API_URL}/auth/user`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  expect(((await response.json()) as { email: string }).email).toBe(email.toLowerCase());
}

/**
 * axe's serious and critical violations, and those of the rules in `enforced` whatever axe rates them (`heading-order`
 * and `landmark-unique` are "moderate", yet a heading skipped or two regions of one name mislead a screen reader).
 */
export async function seriousViolations(page: Page, enforced: readonly string[] = []): Promise<string[]> {
  // One axe walk takes its own seconds of processor (from 2 to over 20 on a loaded two-core machine): each walk brings
  // its own budget, so a test's bound stays about the product's waits, not about how many pages it checks.
  const info = test.info();
  info.setTimeout(info.timeout + 45_000);
  const results = await new AxeBuilder({ page }).analyze();
  return (
    results.violations
      .filter(
        (violation) =>
          violation.impact === 'serious' || violation.impact === 'critical' || enforced.includes(violation.id),
      )
      // The element's markup too, so that a failure names it (styled-components' class names say nothing).
      .map(
        (violation) =>
          `${violation.id}: ${violation.nodes.map((node) => `${node.target.join(' ')} ${node.html.slice(0, 160)}`).join(', ')}`,
      )
  );
}
