import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signInAsAdmin } from '../support/session';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

for (const viewport of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test(`the calculator inside the shell has no serious accessibility problem (${viewport.name})`, async ({ browser, request }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await signInAsAdmin(page, request);
    await page.goto('/calculadora-txi');
    await expect(page.getByRole('heading', { name: 'Calculadora TXI' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Aplicaciones' }).click();
    await expect(page.getByRole('button', { name: 'Beto Pro' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
}

test('the not-found page has no serious accessibility problem', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/no-existe');
  await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await context.close();
});
