// Every dialog and menu keeps the keyboard inside, closes on Escape and gives the focus back to what opened it (never
// to <body>). Each dialog gets 40 presses of Tab and 10 of Shift+Tab.
import type { Locator, Page } from '@playwright/test';
import { expect, person, registerActive, test } from '../support/auth';
import { signInAs, signInAsAdmin } from '../support/session';

async function tabStaysInside(page: Page, container: Locator): Promise<void> {
  const presses = [...Array(40).fill('Tab'), ...Array(10).fill('Shift+Tab')] as string[];
  for (const [index, key] of presses.entries()) {
    await page.keyboard.press(key);
    const inside = await container.evaluate(
      (element) => element.contains(document.activeElement) && document.activeElement !== document.body,
    );
    expect(inside, `${key} n.º ${index + 1}: el foco salió`).toBe(true);
  }
}

async function focusIsOnBody(page: Page): Promise<boolean> {
  return page.evaluate(() => document.activeElement === document.body || document.activeElement === null);
}

test('the presentation holds the focus, Escape closes it, and the focus lands on the page, not on <body>', async ({
  page,
  request,
}) => {
  const newcomer = person('foco');
  await registerActive(request, newcomer);
  await signInAs(page, request, newcomer.email, newcomer.password);
  await page.goto('/apps');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('1 de 3')).toBeVisible();
  await tabStaysInside(page, dialog);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(await focusIsOnBody(page)).toBe(false);
  await expect(page.getByRole('heading', { level: 1, name: /^¡Hola, / })).toBeFocused();
});

test('the launcher and the avatar menu keep Tab inside, and Escape gives the focus back to their button', async ({
  page,
  request,
}) => {
  await signInAsAdmin(page, request);
  await page.goto('/planes');
  await expect(page.getByRole('heading', { name: 'Planes Premium' })).toBeVisible();
  for (const name of ['Aplicaciones', 'Menú de usuario']) {
    const button = page.getByRole('button', { name, exact: true });
    await button.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('region', { name });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole(name === 'Aplicaciones' ? 'button' : 'link').first()).toBeVisible();
    await tabStaysInside(page, panel);
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(button).toBeFocused();
  }
});

test('the plans dialog, the suspend confirmation and the app form hold the focus and give it back to their button', async ({
  page,
  request,
}) => {
  const customer = person('foco-admin');
  await registerActive(request, customer);
  await signInAsAdmin(page, request);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Gestión de Usuarios' })).toBeVisible();
  await page.getByLabel('Filtrar por email').fill(customer.email);
  await page.getByRole('button', { name: 'Buscar' }).click();
  const row = page.getByRole('row').filter({ hasText: customer.email });
  await expect(row).toHaveCount(1);

  const plans = row.getByRole('button', { name: `Planes de ${customer.email}` });
  await plans.click();
  const plansDialog = page.getByRole('dialog', { name: 'Planes del Usuario' });
  await expect(plansDialog.getByRole('heading', { name: 'Beto Pro' })).toBeVisible();
  await tabStaysInside(page, plansDialog);
  await page.keyboard.press('Escape');
  await expect(plansDialog).toBeHidden();
  await expect(plans).toBeFocused();

  const suspend = row.getByRole('button', { name: `Suspender a ${customer.email}` });
  await suspend.click();
  const confirm = page.getByRole('dialog', { name: 'Suspender usuario' });
  await expect(confirm).toContainText(`¿Suspender a ${customer.email}?`);
  await tabStaysInside(page, confirm);
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(suspend).toBeFocused();
  await expect(row).toContainText('Activo');

  await page
    .getByRole('navigation', { name: 'Panel de administración' })
    .getByRole('link', { name: 'Aplicaciones' })
    .click();
  const create = page.getByRole('button', { name: 'Nueva aplicación', exact: true });
  await create.click();
  const form = page.getByRole('dialog', { name: 'Nueva aplicación' });
  await expect(form.getByLabel('Nombre')).toBeVisible();
  await tabStaysInside(page, form);
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await expect(create).toBeFocused();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("the admin side menu holds the focus and Escape closes it, back on 'Abrir menú'", async ({ page, request }) => {
    await signInAsAdmin(page, request);
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Gestión de Usuarios' })).toBeVisible();
    const open = page.getByRole('button', { name: /Abrir menú/ });
    await open.click();
    const side = page.locator('#admin-side-panel');
    await expect(side.getByRole('link', { name: 'Resumen' })).toBeVisible();
    await tabStaysInside(page, side);
    await page.keyboard.press('Escape');
    await expect(side.getByRole('link', { name: 'Resumen' })).toBeHidden();
    await expect(open).toBeFocused();
  });
});
