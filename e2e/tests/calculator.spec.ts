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

for (const viewport of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width} × ${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test(`a value outside its range and a reversed range are said beside the result, which is still computed (${viewport.name})`, async ({
      page,
    }) => {
      const input = card(page, 'Rango de entrada');
      const output = card(page, 'Rango de salida');
      const notes = page.getByRole('status').getByRole('list', { name: 'Avisos del cálculo' });
      await input.value.fill('12');
      await expect(output.value).toHaveValue('50.00');
      await expect(notes).toHaveCount(0);

      // A reverse-acting transmitter's range, typed the other way round, and a value beyond it.
      await input.max.fill('2');
      await expect(output.value).toHaveValue('-400.00');
      await expect(notes.getByRole('listitem')).toHaveText([
        'Fuera de rango: 12 mA no está entre 4 y 2 mA (rango de entrada), así que el resultado se extrapola fuera del rango de salida.',
        'Rango de entrada invertido: el mínimo (4 mA) es mayor que el máximo (2 mA), como en un transmisor de acción inversa.',
      ]);

      // Inside a reversed range, only the reversal is said.
      await input.min.fill('20');
      await input.max.fill('4');
      await expect(output.value).toHaveValue('50.00');
      await expect(notes.getByRole('listitem')).toHaveText([
        'Rango de entrada invertido: el mínimo (20 mA) es mayor que el máximo (4 mA), como en un transmisor de acción inversa.',
      ]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: test.info().outputPath(`calculadora-${viewport.width}.png`), fullPage: true });
    });
  });
}
