import { expect, test, type Page } from '@playwright/test';
import { signInAsAdmin } from '../support/session';

function card(page: Page, name: string) {
  const region = page.getByRole('region', { name });
  return {
    type: region.getByRole('combobox'),
    min: region.getByRole('textbox', { name: 'Mínimo' }),
    max: region.getByRole('textbox', { name: 'Máximo' }),
    value: region.getByRole('textbox', { name: 'Valor' }),
  };
}

test.beforeEach(async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.goto('/calculadora-txi');
  await expect(page.getByRole('heading', { name: 'Calculadora TXI' })).toBeVisible();
});

test('converts an input signal to the output magnitude and back', async ({ page }) => {
  const input = card(page, 'Rango de entrada');
  const output = card(page, 'Rango de salida');
  await input.value.fill('12');
  await expect(output.value).toHaveValue('50.00');

  await output.type.selectOption({ label: 'Temperatura (°F)' });
  await expect(output.min).toHaveValue('32');
  await expect(output.max).toHaveValue('212');
  await expect(input.value).toHaveValue('');

  await output.value.fill('212');
  await expect(input.value).toHaveValue('20.00');
  await output.value.fill('122');
  await expect(input.value).toHaveValue('12.00');
});

test('accepts a comma decimal and computes nothing while a bound is not a number', async ({ page }) => {
  const input = card(page, 'Rango de entrada');
  const output = card(page, 'Rango de salida');
  await input.value.fill('12,5');
  await expect(output.value).toHaveValue('53.13');
  await input.max.fill('abc');
  await expect(output.value).toHaveValue('');
  await input.max.fill('20');
  await expect(output.value).toHaveValue('53.13');
});

test('works by keyboard alone', async ({ page }) => {
  const input = card(page, 'Rango de entrada');
  await input.type.focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(input.value).toBeFocused();
  await page.keyboard.type('8');
  await expect(card(page, 'Rango de salida').value).toHaveValue('25.00');
});
