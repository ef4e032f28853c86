import path from 'node:path';
import { expect, test } from '@playwright/test';
import { API_URL, E2E, ROOT } from '../support/env';
import { signInAsAdmin } from '../support/session';
import { startBrokenRemote, startSpareShell } from '../support/static-servers';

// The remote that is down is covered by remote-fallback.spec.ts; here it is up but its chunks are broken.
test('a remote serving broken chunks shows the fallback, the rest works, and Reintentar recovers once it is fixed', async ({
  page,
  request,
}) => {
  const remote = await startBrokenRemote(path.join(ROOT, 'remote-calculator/dist'), E2E.spareCalculatorPort);
  const shell = await startSpareShell(API_URL, {
    calculator: `${remote.url}/mf-manifest.json`,
    apps: `http://127.0.0.1:${E2E.appsPort}/mf-manifest.json`,
  });
  try {
    await signInAsAdmin(page, request);
    await page.goto(`${shell.url}/calculadora-txi`);
    const fallback = page.getByRole('alert').filter({ hasText: 'Esta sección no está disponible en este momento.' });
    await expect(fallback).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Calculadora TXI' })).toBeHidden();

    // The top bar and another area, from another remote, keep working.
    await page.getByRole('button', { name: 'Aplicaciones' }).click();
    await expect(
      page.getByRole('region', { name: 'Aplicaciones' }).getByRole('button', { name: 'Beto Pro' }),
    ).toBeVisible();
    await page.keyboard.press('Escape');

    await remote.repair();
    await fallback.getByRole('button', { name: 'Reintentar' }).click();
    await expect(page.getByRole('heading', { name: 'Calculadora TXI' })).toBeVisible();
    await expect(fallback).toBeHidden();
  } finally {
    await shell.close();
    await remote.close();
  }
});
