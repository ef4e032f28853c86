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
  const shell = await startSpareShell(API_URL, {
    calculator: `http://127.0.0.1:${E2E.spareCalculatorPort}/mf-manifest.json`,
  });
  let remote: StaticServer | undefined;
  try {
    await signInAsAdmin(page, request);
    await page.goto(`${shell.url}/calculadora-txi`);
    const fallback = page.getByRole('alert').filter({ hasText: 'Esta sección no está disponible en este momento.' });
    await expect(fallback).toBeVisible();

    await page.getByRole('button', { name: 'Aplicaciones' }).click();
    await expect(
      page.getByRole('region', { name: 'Aplicaciones' }).getByRole('button', { name: 'Beto Pro' }),
    ).toBeVisible();
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

// The remote is up for the shell's server (which announces its files as preloads) but the browser cannot reach it, as
// when its port is blocked; those preloads fail. One click of 'Reintentar' must load the page once the browser
// reaches the remote again, not be answered by the failed preload (docs/decisions/0028-remote-retry.md).
test('Reintentar recovers on the first click after the browser could not reach a remote (port blocked, then open)', async ({
  page,
  request,
}) => {
  const remoteOrigin = `http://localhost:${E2E.appsPort}`;
  const fetched: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(`${remoteOrigin}/`)) fetched.push(new URL(r.url()).pathname);
  });
  await signInAsAdmin(page, request);
  await page.route(`${remoteOrigin}/**`, (route) => route.abort('connectionrefused'));
  await page.goto('/planes');
  const fallback = page.getByRole('alert').filter({ hasText: 'Esta sección no está disponible en este momento.' });
  await expect(fallback).toBeVisible();
  // The server did announce the remote's entry as a preload: that is what used to answer the first retry.
  expect(fetched).toContain('/remoteEntry.js');

  await page.unroute(`${remoteOrigin}/**`);
  fetched.length = 0;
  await fallback.getByRole('button', { name: 'Reintentar' }).click();
  await expect(page.getByRole('heading', { name: 'Planes Premium' })).toBeVisible();
  await expect(fallback).toBeHidden();
  expect(fetched.some((file) => file.startsWith('/remoteEntry.js'))).toBe(true);
  // The rest of that remote works too: the apps home, another of its pages.
  await page.getByRole('navigation').getByRole('link', { name: 'Aplicaciones' }).click();
  await expect(page.getByRole('heading', { name: /^¡Hola, / })).toBeVisible();
});

// The same recovery when the page's own file arrives after the remote's entry (a CI run met this order: the entry
// came first, the remote asked for the page's file at its plain address, and the failed preload answered it).
test("Reintentar recovers on the first click even when the page's own file comes after the remote's entry", async ({
  page,
  request,
}) => {
  const remoteOrigin = `http://localhost:${E2E.appsPort}`;
  await signInAsAdmin(page, request);
  await page.route(`${remoteOrigin}/**`, (route) => route.abort('connectionrefused'));
  await page.goto('/planes');
  const fallback = page.getByRole('alert').filter({ hasText: 'Esta sección no está disponible en este momento.' });
  await expect(fallback).toBeVisible();

  await page.unroute(`${remoteOrigin}/**`);
  // Every file of the remote but its entry and manifest comes a second late.
  await page.route(
    (url) => url.origin === remoteOrigin && !/\/(remoteEntry\.js|mf-manifest\.json)$/.test(url.pathname),
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    },
  );
  await fallback.getByRole('button', { name: 'Reintentar' }).click();
  await expect(page.getByRole('heading', { name: 'Planes Premium' })).toBeVisible();
  await expect(fallback).toBeHidden();
});
