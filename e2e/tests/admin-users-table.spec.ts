// The admin users table keeps its actions in view whatever the data, is a list of cards on a phone, asks before
// suspending, and a suspended person who is signed in is told why at their next call.
import type { Page } from '@playwright/test';
import { expect, person, registerActive, test, type Person } from '../support/auth';
import { API_URL } from '../support/env';
import { signInAsAdmin } from '../support/session';

/** A person whose full name is 141 characters and whose address is long too. */
function longPerson(): Person {
  const who = person('nombre-muy-largo-de-una-persona-con-apellidos-compuestos');
  return {
    ...who,
    name: 'María de los Ángeles Guadalupe Concepción Inmaculada del Perpetuo Socorro Fernández-Villaverde',
    lastName: 'Quispe Huamán de la Torre y Montenegro Salazar',
  };
}

async function showOnly(page: Page, email: string) {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Gestión de Usuarios' })).toBeVisible();
  await page.getByLabel('Filtrar por email').fill(email);
  await page.getByRole('button', { name: 'Buscar' }).click();
}

test.describe('at 1280 × 800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("a 141-character name keeps 'Acciones' and every row's buttons inside the screen, the full name on hover", async ({
    page,
    request,
  }) => {
    const who = longPerson();
    expect(`${who.name} ${who.lastName}`.length).toBeGreaterThanOrEqual(120);
    await registerActive(request, who);
    await signInAsAdmin(page, request);
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Gestión de Usuarios' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Tabla de usuarios' });
    await expect(table.getByRole('row').filter({ hasText: who.email })).toHaveCount(1);

    const inViewport = async (locator: ReturnType<Page['locator']>) => {
      const box = await locator.boundingBox();
      expect(box).not.toBeNull();
      return box!.x >= 0 && box!.x + box!.width <= 1280;
    };
    expect(await inViewport(table.getByRole('columnheader', { name: 'Acciones' }))).toBe(true);
    const row = table.getByRole('row').filter({ hasText: who.email });
    expect(await inViewport(row.getByRole('button', { name: `Suspender a ${who.email}` }))).toBe(true);
    expect(await inViewport(row.getByRole('button', { name: `Planes de ${who.email}` }))).toBe(true);
    // The table fits its panel: nothing scrolls sideways.
    expect(await table.evaluate((element) => element.scrollWidth <= (element.parentElement?.clientWidth ?? 0))).toBe(
      true,
    );

    // The name is cut on one line, and shown whole with the keyboard's focus (and in the tooltip).
    const text = row.locator('[title]');
    await expect(text).toHaveAttribute('title', `${who.name} ${who.lastName}\n${who.email}`);
    const cut = await text.locator('strong').evaluate((element) => element.scrollWidth > element.clientWidth);
    expect(cut).toBe(true);
    await text.focus();
    const whole = await text.locator('strong').evaluate((element) => element.scrollWidth <= element.clientWidth);
    expect(whole).toBe(true);
  });

  test("'Suspender' asks first; once suspended, the signed-in person is told why at their next call", async ({
    page,
    request,
    browser,
  }) => {
    const who = person('suspendida');
    await registerActive(request, who);
    // The person, signed in, on their apps page in a browser of their own.
    const theirs = await browser.newContext();
    const theirPage = await theirs.newPage();
    // Signed in once (the token stored by a page script, not before every load as signInAs does).
    const login = await request.post(`${API_URL}/auth/login`, { data: { email: who.email, password: who.password } });
    const { access_token: token } = (await login.json()) as { access_token: string };
    await theirPage.goto('/login');
    await theirPage.evaluate((value) => window.localStorage.setItem('token', value), token);
    await theirPage.goto('/apps');
    await expect(theirPage.getByRole('heading', { level: 1, name: /^¡Hola, / })).toBeVisible();

    await signInAsAdmin(page, request);
    await showOnly(page, who.email);
    const row = page.getByRole('row').filter({ hasText: who.email });
    await row.getByRole('button', { name: `Suspender a ${who.email}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Suspender usuario' });
    await confirm.getByRole('button', { name: 'Cancelar' }).click();
    await expect(confirm).toBeHidden();
    await expect(row).toContainText('Activo');
    await row.getByRole('button', { name: `Suspender a ${who.email}` }).click();
    await confirm.getByRole('button', { name: 'Suspender' }).click();
    await expect(page.getByText(`${who.email} ha sido suspendido`)).toBeVisible();
    await expect(row).toContainText('Suspendido');

    // Their next call (here: the session check of a reload) ends the session with the reason.
    await theirPage.reload();
    await expect(theirPage).toHaveURL(/\/login\?error=account_suspended$/);
    await expect(theirPage.getByText('Tu cuenta está suspendida. Contacta con soporte.')).toBeVisible();
    expect(await theirPage.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
    await theirs.close();
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('each user is a card with its labels, and its buttons are on the screen', async ({ page, request }) => {
    const who = longPerson();
    await registerActive(request, who);
    await signInAsAdmin(page, request);
    await showOnly(page, who.email);
    const row = page.getByRole('row').filter({ hasText: who.email });
    await expect(row).toBeVisible();
    // Each value has its label beside it (the column headers are not shown on a phone).
    const label = (cell: string) =>
      row.locator(`td[data-label="${cell}"]`).evaluate((element) => getComputedStyle(element, '::before').content);
    expect(await label('Rol')).toBe('"Rol"');
    expect(await label('Estado')).toBe('"Estado"');
    await expect(page.getByRole('columnheader', { name: 'Acciones' })).toBeHidden();
    for (const name of [`Suspender a ${who.email}`, `Planes de ${who.email}`]) {
      const box = await row.getByRole('button', { name }).boundingBox();
      expect(box!.x >= 0 && box!.x + box!.width <= 390, name).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

// 'Siguiente' and 'Anterior' ask for the page beside by the cursor of the page on screen (keyset pagination,
// api/README.md), and show the same people a page number would.
test("'Siguiente' and 'Anterior' page the list by cursor: every person once, and back to the same first page", async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const tag = `paginas${Date.now().toString(36)}`;
  const registered: string[] = [];
  for (let i = 0; i < 11; i++) {
    const who = person(tag);
    await registerActive(request, who);
    registered.push(who.email);
  }
  await signInAsAdmin(page, request);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Gestión de Usuarios' })).toBeVisible();
  await page.getByLabel('Usuarios por página').selectOption('10');
  await page.getByLabel('Filtrar por email').fill(tag);
  await page.getByRole('button', { name: 'Buscar' }).click();
  await expect(page.getByText('11 usuarios', { exact: true })).toBeVisible();

  const table = page.getByRole('table', { name: 'Tabla de usuarios' });
  const shown = async () =>
    (await table.getByRole('row').allTextContents()).flatMap(
      (text) => text.match(new RegExp(`${tag}-[a-z0-9]+-\\d+@e2e\\.portal\\.test`)) ?? [],
    );
  await expect.poll(async () => (await shown()).length).toBe(10);
  const first = await shown();

  const pagination = page.getByRole('navigation', { name: 'Paginación' });
  const next = page.waitForRequest(
    (r) => r.url().includes('/user/listar') && new URL(r.url()).searchParams.has('after'),
  );
  await pagination.getByRole('button', { name: 'Siguiente' }).click();
  expect(new URL((await next).url()).searchParams.get('page')).toBe('2');
  await expect.poll(async () => (await shown()).length).toBe(1);
  const second = await shown();
  // Newest first: the first person registered is the one left for page 2; nobody twice, nobody missing.
  expect(second).toEqual([registered[0]]);
  expect([...first, ...second].sort()).toEqual([...registered].sort());
  await expect(pagination.getByRole('button', { name: 'Página 2' })).toHaveAttribute('aria-current', 'page');

  const back = page.waitForRequest(
    (r) => r.url().includes('/user/listar') && new URL(r.url()).searchParams.has('before'),
  );
  await pagination.getByRole('button', { name: 'Anterior' }).click();
  expect(new URL((await back).url()).searchParams.get('page')).toBe('1');
  await expect.poll(shown).toEqual(first);
});

test("a first load of the list that fails says 'Error al listar usuarios', and 'Reintentar' shows the list", async ({
  page,
  request,
}) => {
  await signInAsAdmin(page, request);
  // The API answers the list with a 500 (its own headers, so the browser reads the answer) until the retry.
  let failing = true;
  const failed: string[] = [];
  await page.route(
    (url) => url.href.startsWith(`${API_URL}/user/listar`),
    async (route) => {
      if (!failing || route.request().method() !== 'GET') return route.continue();
      const response = await route.fetch();
      failed.push(route.request().url());
      return route.fulfill({ response, status: 500, body: '{}', contentType: 'application/json' });
    },
  );
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Gestión de Usuarios' })).toBeVisible();
  const alert = page.getByRole('alert').filter({ hasText: 'Error al listar usuarios' });
  await expect(alert).toBeVisible();
  await expect(page.getByText('Cargando usuarios...')).toHaveCount(0);
  expect(failed.length).toBeGreaterThan(0);

  failing = false;
  await page.getByRole('button', { name: 'Reintentar' }).click();
  // Newest first: the first row is someone, whoever registered last in this run.
  await expect(page.getByRole('table', { name: 'Tabla de usuarios' }).getByRole('row').nth(1)).toContainText('@');
  await expect(alert).toHaveCount(0);
});
