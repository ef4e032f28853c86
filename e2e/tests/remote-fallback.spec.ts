import path from 'node:path';
import { expect, test } from '@playwright/test';
import { API_URL, E2E, ROOT } from '../support/env';
import { signInAsAdmin } from '../support/session';
import { startSpareShell, startStaticServer, type StaticServer } from '../support/static-servers';

test('with the calculator remote down the area shows the fallback, the top bar works, and Reintentar recovers', async ({
  page,
  request,
}) => {
  // A second shell of the same build whose calculator remote points at a port where nothing listens yet.
  const shell = await startSpareShell(API_URL, { calculator: `http://127.0.0.1:${E2E.spareCalculatorPort}/mf-manifest.json` });
  let remote: StaticServer | undefined;
  try {
    await signInAsAdmin(page, request);
    await page.goto(`${shell.url}/calculadora-txi`);
    const fallback = page.getByRole('alert').filter({ hasText: 'Esta sección no está disponible en este momento.' });
    await expect(fallback).toBeVisible();

    await page.getByRole('button', { name: 'Aplicaciones' }).click();
    await expect(page.getByRole('region', { name: 'Aplicaciones' }).getByRole('button', { name: 'Beto Pro' })).toBeVisible();
    await page.keyboard.press('Escape');

    remote = await startStaticServer({ dir: path.join(ROOT, 'remote-calculator/dist'), port: E2E.spareCalculatorPort });
    await fallback.getByRole('button', { name: 'Reintentar' }).click();
    await expect(page.getByRole('heading', { name: 'Calculadora TXI' })).toBeVisible();
    await expect(fallback).toBeHidden();
  } finally {
    await remote?.close();
    await shell.close();
  }
});

test('a route whose remote is not configured shows the same fallback inside the shell', async ({ page, request }) => {
  // The same shell build, deployed with a runtime config that names no remote at all.
  const shell = await startSpareShell(API_URL, {});
  try {
    await signInAsAdmin(page, request);
    await page.goto(`${shell.url}/planes`);
    await expect(page.getByText('Esta sección no está disponible en este momento.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Menú de usuario' })).toBeVisible();
  } finally {
    await shell.close();
  }
});
