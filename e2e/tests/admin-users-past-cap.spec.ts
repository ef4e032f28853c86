// A text filter that matches more than 1,000 people: the total the panel shows stops at 1,000 and says so, and still
// every row is reachable: 'Siguiente' walks on past the 1,000th to the last match, and 'Anterior' comes back. The
// people are in an API of the test's own (support/crowded-api.ts) behind a second shell of the same build, whose
// admin and sign-in pages are the suite's own remotes.
import { expect, test } from '@playwright/test';
import { startCrowdedApi } from '../support/crowded-api';
import { E2E } from '../support/env';
import { signInAsAdmin } from '../support/session';
import { startSpareShell } from '../support/static-servers';

const TAG = 'multitud';
const PEOPLE = 1005;
/** The address of the n-th match, newest first (support/crowded-api.ts numbers them so). */
const nth = (n: number) => `${TAG}-${String(n).padStart(4, '0')}@e2e.portal.test`;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => nth(from + i));

test.use({ viewport: { width: 1280, height: 800 } });

let shell: Awaited<ReturnType<typeof startSpareShell>> | undefined;
let api: Awaited<ReturnType<typeof startCrowdedApi>> | undefined;

// The two processes and the 1,005 people are made before the test, in a hook of their own with its own time: on a
// busy machine they took most of a minute, which left the walk through the pages too little of the test's.
test.beforeAll(async () => {
  test.setTimeout(120_000);
  shell = await startSpareShell(`http://127.0.0.1:${E2E.spareApiPort}`, {
    auth: `http://127.0.0.1:${E2E.authPort}/mf-manifest.json`,
    apps: `http://127.0.0.1:${E2E.appsPort}/mf-manifest.json`,
    admin: `http://127.0.0.1:${E2E.adminPort}/mf-manifest.json`,
  });
  api = await startCrowdedApi({ tag: TAG, count: PEOPLE, shellUrl: shell.url });
});

test.afterAll(async () => {
  await api?.close();
  await shell?.close();
});

test("past 1,000 matches the total says 'Más de 1000' and 'Siguiente' reaches row 1,001 and the last, 'Anterior' comes back", async ({
  page,
  request,
}) => {
  // 21 pages, each a request to an API of 1,005 people and a table drawn again.
  test.setTimeout(60_000);
  if (!api || !shell) throw new Error('the crowded API did not start');
  await signInAsAdmin(page, request, api.url);
  await page.goto(`${shell.url}/admin`);
  await expect(page.getByRole('heading', { name: 'Gestión de Usuarios' })).toBeVisible();

  // The largest page size on offer: the fewest pages to walk.
  const sizeSelect = page.getByLabel('Usuarios por página');
  const sizes = (await sizeSelect.locator('option').allTextContents()).map(Number);
  const size = Math.max(...sizes);
  await sizeSelect.selectOption(String(size));
  await page.getByLabel('Filtrar por email').fill(TAG);
  await page.getByRole('button', { name: 'Buscar' }).click();
  await expect(
    page.getByText('Más de 1000 usuarios: escribe más del email para acotar la búsqueda', { exact: true }),
  ).toBeVisible();

  const table = page.getByRole('table', { name: 'Tabla de usuarios' });
  const shown = async () =>
    (await table.getByRole('row').allTextContents()).flatMap(
      (text) => text.match(new RegExp(`${TAG}-\\d{4}@e2e\\.portal\\.test`)) ?? [],
    );
  const pagination = page.getByRole('navigation', { name: 'Paginación' });
  const next = pagination.getByRole('button', { name: 'Siguiente' });
  const onPage = async (number: number) => {
    await expect(pagination.getByRole('button', { name: `Página ${number}` })).toHaveAttribute('aria-current', 'page');
    const first = (number - 1) * size + 1;
    await expect.poll(shown).toEqual(range(first, Math.min(number * size, PEOPLE)));
  };

  // Every page by 'Siguiente', each holding the next matches in order, up to the one past the capped count.
  await onPage(1);
  const lastPage = Math.ceil(PEOPLE / size);
  for (let number = 2; number <= lastPage; number++) {
    await expect(next, `'Siguiente' on page ${number - 1}`).toBeEnabled();
    await next.click();
    await onPage(number);
  }
  // Row 1,001 and the rest: the oldest people seeded, newest first, still under the capped total.
  expect((lastPage - 1) * size + 1).toBe(1001);
  await expect.poll(shown).toEqual(range(1001, PEOPLE));
  await expect(page.getByText('Más de 1000 usuarios: escribe más del email para acotar la búsqueda')).toBeVisible();
  await expect(next).toBeDisabled();

  await pagination.getByRole('button', { name: 'Anterior' }).click();
  await onPage(lastPage - 1);
});
