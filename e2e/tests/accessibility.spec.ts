import { expect, seriousViolations, test } from '../support/auth';
import { signInAsAdmin } from '../support/session';

for (const viewport of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test(`the calculator inside the shell has no serious accessibility problem (${viewport.name})`, async ({
    browser,
    request,
  }) => {
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
