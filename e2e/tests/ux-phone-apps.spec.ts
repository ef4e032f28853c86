// The apps pages as a person meets them on a phone (390×844) and on a desktop (1280×800): how to upgrade while buying
// is coming soon, the plan they have, the apps home's tab strip and promo banner, and no page wider than the phone.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, person, registerActive, test } from '../support/auth';
import { API_URL, E2E } from '../support/env';
import { signInAs, signInAsAdmin } from '../support/session';

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
];

const PURCHASE_SOON = 'La compra en línea aún no está disponible.';

/** The browser's runtime config as a deployment with SUPPORT_EMAIL set serves it (the suite's own start sets none). */
async function withSupportAddress(page: Page, address: string): Promise<void> {
  await page.route('**/runtime-config.js', async (route) => {
    const served = await (await route.fetch()).text();
    const body = served.replace(/"supportEmail":"[^"]*"/, `"supportEmail":${JSON.stringify(address)}`);
    await route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body });
  });
}

async function tokenOf(request: APIRequestContext, email: string, password: string): Promise<string> {
  const login = await request.post(`${API_URL}/auth/login`, { data: { email, password } });
  expect(login.status(), await login.text()).toBe(200);
  return ((await login.json()) as { access_token: string }).access_token;
}

/** Signs the page in as a new person with the free plans whom the administrator moved to Beto Pro's PRO plan. */
async function personWithBetoPro(page: Page, request: APIRequestContext, label: string): Promise<void> {
  const who = person(label);
  await registerActive(request, who);
  const adminToken = await tokenOf(request, E2E.adminEmail, E2E.adminPassword);
  const token = await tokenOf(request, who.email, who.password);
  const me = (await (
    await request.get(`${API_URL}/auth/user`, { headers: { Authorization: `Bearer ${token}` } })
  ).json()) as { id: number };
  const apps = (await (await request.get(`${API_URL}/apps/listar-con-planes`)).json()) as {
    id: number;
    planes: { id: number; nombre: string }[];
  }[];
  const pro = apps.find((app) => app.id === 2)!.planes.find((plan) => plan.nombre.toLowerCase() === 'pro')!;
  const changed = await request.post(`${API_URL}/plan-usuario/cambiar-plan-app`, {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { idUsuario: me.id, idApp: 2, idPlan: pro.id, fechaVencimiento: '2099-01-01T00:00:00.000Z' },
  });
  expect(changed.status(), await changed.text()).toBe(200);
  await signInAs(page, request, who.email, who.password);
}

function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/** Where an element's words are drawn: the box of its text, not of the element (a block is as wide as its parent). */
function wordsBox(element: Locator) {
  return element.evaluate((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    const { x, y, width, height } = range.getBoundingClientRect();
    return { x, y, width, height };
  });
}

/** Whether an element's words share any pixel with a picture's box. */
async function wordsOverlap(words: Locator, picture: Locator): Promise<boolean> {
  const [one, two] = [await wordsBox(words), await picture.boundingBox()];
  if (!two) throw new Error('the picture is not on screen');
  return (
    one.x < two.x + two.width && two.x < one.x + one.width && one.y < two.y + two.height && two.y < one.y + one.height
  );
}

for (const { name, viewport } of SIZES) {
  test.describe(`on a ${name}`, () => {
    test.use({ viewport });

    test("the plans pages say how to upgrade while buying is 'Próximamente', and mark the plan the person has", async ({
      page,
      request,
    }, testInfo) => {
      await personWithBetoPro(page, request, `planes-${name}`);
      // The suite's start sets no SUPPORT_EMAIL: no made-up address, an administrator is who can change the plan.
      const help = `${PURCHASE_SOON} Para mejorar tu plan, pide a un administrador del portal que lo cambie.`;

      await page.goto('/planes');
      await expect(page.getByRole('heading', { level: 1, name: 'Planes Premium' })).toBeVisible();
      await expect(page.getByText(PURCHASE_SOON)).toHaveText(help);
      const card = (app: string) =>
        page.getByTestId('plan-card').filter({ has: page.getByRole('heading', { name: app }) });
      // Each plan's region is named with its app: one name per region on the page.
      const tier = (app: string, plan: string) =>
        card(app).getByRole('region', { name: `${app} ${plan}`, exact: true });
      await expect(tier('Beto Pro', 'PRO')).toContainText('Tu plan actual');
      await expect(tier('Beto Pro', 'Gratis')).not.toContainText('Tu plan actual');
      await expect(tier('TX30', 'Gratis')).toContainText('Tu plan actual');
      await expect(tier('TX30', 'PRO')).not.toContainText('Tu plan actual');
      expect(await pageWidth(page)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: testInfo.outputPath(`planes-${viewport.width}.png`), fullPage: true });

      await page.goto('/apps/2');
      await expect(page.getByText(PURCHASE_SOON)).toHaveText(help);
      await expect(
        page.getByRole('region', { name: 'Beto Pro PRO' }).getByText('Tu plan actual', { exact: true }),
      ).toBeVisible();
      await page.goto('/apps/3');
      await expect(page.getByRole('region', { name: 'TX30 PRO' }).getByText('Tu plan actual: Gratis')).toBeVisible();
      expect(await pageWidth(page)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: testInfo.outputPath(`apps-3-${viewport.width}.png`), fullPage: true });
    });

    test('with SUPPORT_EMAIL set, the way to upgrade is a mail to that address about the plan', async ({
      page,
      request,
    }) => {
      await withSupportAddress(page, 'soporte@acme.pe');
      await signInAsAdmin(page, request);

      await page.goto('/planes');
      const help = page.getByText(PURCHASE_SOON);
      await expect(help).toHaveText(`${PURCHASE_SOON} Para mejorar tu plan, escríbenos a soporte@acme.pe.`);
      await expect(help.getByRole('link', { name: 'soporte@acme.pe' })).toHaveAttribute(
        'href',
        'mailto:soporte@acme.pe?subject=Mejorar%20mi%20plan',
      );
      await page.goto('/apps/2');
      await expect(page.getByText(PURCHASE_SOON).getByRole('link', { name: 'soporte@acme.pe' })).toHaveAttribute(
        'href',
        'mailto:soporte@acme.pe?subject=Mejorar%20mi%20plan%20de%20Beto%20Pro',
      );
    });

    test('the apps home greets with no assumed gender', async ({ page, request }) => {
      await signInAsAdmin(page, request);
      await page.goto('/apps');
      await expect(page.getByRole('heading', { level: 1, name: '¡Hola, Administrador!' })).toBeVisible();
    });

    test("the apps home's tabs are whole, and the promo banner's words clear of its picture", async ({
      page,
      request,
    }, testInfo) => {
      await signInAsAdmin(page, request);
      await page.goto('/apps');
      await expect(page.getByRole('article', { name: 'TX30' })).toBeVisible();

      const strip = page.getByRole('tablist', { name: 'Tipos de aplicaciones' });
      for (const chosen of ['Aplicaciones para móvil', 'Aplicaciones web']) {
        await strip.getByRole('tab', { name: chosen }).click();
        await expect(strip.getByRole('tab', { name: chosen })).toHaveAttribute('aria-selected', 'true');
        // Nothing to scroll sideways, and each tab's words inside its own box, inside the window.
        expect(await strip.evaluate((list) => list.scrollWidth - list.clientWidth)).toBeLessThanOrEqual(0);
        for (const tab of await strip.getByRole('tab').all()) {
          const box = (await tab.boundingBox())!;
          expect(box.x, (await tab.textContent()) ?? '').toBeGreaterThanOrEqual(0);
          expect(box.x + box.width, (await tab.textContent()) ?? '').toBeLessThanOrEqual(viewport.width);
          expect(await tab.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
        }
      }

      const promo = page.getByRole('link', { name: /^C\+Suite/ });
      const picture = promo.locator('img');
      await expect(picture).toBeVisible();
      expect(await wordsOverlap(promo.getByText('C+Suite', { exact: true }), picture)).toBe(false);
      expect(await wordsOverlap(promo.getByText(/^Automatiza, gestiona y optimiza/), picture)).toBe(false);
      expect(await pageWidth(page)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: testInfo.outputPath(`apps-${viewport.width}.png`) });
    });
  });
}

test.describe('on a phone, every page of the apps remote', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('fits 390 px: nothing wider than the screen', async ({ page, request }) => {
    await signInAsAdmin(page, request);
    for (const path of [
      '/apps',
      '/apps/1',
      '/apps/2',
      '/apps/3',
      '/apps/5',
      '/apps/99',
      '/planes',
      '/pagos',
      '/success',
      '/beto',
      '/control-max',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect({ path, width: await pageWidth(page) }).toEqual({ path, width: 390 });
    }
    await page.goto('/apps');
    await page.getByRole('tab', { name: 'Aplicaciones para móvil' }).click();
    await expect(page.getByRole('article', { name: 'TX30' }).getByText('No disponible para móvil')).toBeVisible();
    expect(await pageWidth(page)).toBe(390);
  });
});
