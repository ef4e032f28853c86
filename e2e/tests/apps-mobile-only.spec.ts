import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { type ChangeApp, expect, test } from '../support/catalogue';
import jsQR from 'jsqr';
import { seriousViolations } from '../support/auth';
import { signInAsAdmin } from '../support/session';

// Each test signs in as the administrator, changes an app and walks the dialog: on a busy machine that passed 30 s.
test.describe.configure({ timeout: 60_000 });

// A mobile-only app: Beto Pro with no web address and both stores, for the length of each test.
const PLAY = 'https://play.google.com/store/apps/details?id=com.portal.betopro';
const APPLE = 'https://apps.apple.com/app/beto-pro/id6450000002';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** Beto Pro mobile-only for one test: no web address, both stores. */
const MOBILE_ONLY = { webUrl: null, isEnabledWeb: false, iosUrl: APPLE, androidUrl: PLAY };

/** What a phone's camera reads from a QR code image on the page. */
async function readQr(image: Locator): Promise<string | null> {
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const pixels = await image.evaluate((img: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 320;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, 320, 320);
    context.drawImage(img, 0, 0, 320, 320);
    return Array.from(context.getImageData(0, 0, 320, 320).data);
  });
  return jsQR(Uint8ClampedArray.from(pixels), 320, 320)?.data ?? null;
}

function focusIsIn(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element.contains(document.activeElement));
}

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  /** Signed in, Beto Pro mobile-only, its card's 'Abrir' clicked: the dialog it opens and the card's button. */
  async function openDialog(page: Page, request: APIRequestContext, changeApp: ChangeApp) {
    await changeApp(await signInAsAdmin(page, request), 2, MOBILE_ONLY);
    await page.goto('/apps');
    await page.getByRole('tab', { name: 'Aplicaciones para móvil' }).click();
    const open = page.getByRole('article', { name: 'Beto Pro' }).getByRole('button', { name: 'Abrir Beto Pro' });
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Descarga Beto Pro en tu teléfono' });
    await expect(dialog).toBeVisible();
    return { dialog, open };
  }

  test('a mobile-only app shows where to get it (stores and QR codes) instead of opening a tab', async ({
    page,
    context,
    request,
    changeApp,
  }) => {
    const opened: string[] = [];
    page.on('popup', (popup) => opened.push(popup.url()));
    context.on('page', (tab) => opened.push(tab.url()));
    const { dialog } = await openDialog(page, request, changeApp);

    await expect(dialog).toContainText('Escanea el código con tu teléfono');
    // Peru's Spanish, the portal's: a 'computadora'.
    await expect(dialog).toContainText('no se abre en el navegador de la computadora');
    await expect(dialog.getByRole('link', { name: /^Abrir en Google Play/ })).toHaveAttribute('href', PLAY);
    await expect(dialog.getByRole('link', { name: /^Abrir en App Store/ })).toHaveAttribute('href', APPLE);
    // Each code is the address its link opens, as a phone's camera reads it.
    expect(await readQr(dialog.getByRole('img', { name: 'Código QR del enlace de Beto Pro en Google Play' }))).toBe(
      PLAY,
    );
    expect(await readQr(dialog.getByRole('img', { name: 'Código QR del enlace de Beto Pro en App Store' }))).toBe(
      APPLE,
    );
    expect(opened).toEqual([]);
    expect(context.pages()).toHaveLength(1);
    await page.screenshot({ path: test.info().outputPath('donde-descargar-1280.png') });
  });

  test("the dialog fits a narrow window, 'Cerrar' gives the focus back to the card, and it has no serious accessibility problem", async ({
    page,
    context,
    request,
    changeApp,
  }) => {
    const { dialog, open } = await openDialog(page, request, changeApp);
    // A desktop browser's narrow window shows the same dialog: it fits a phone's width.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(dialog).toContainText('no se abre en el navegador de la computadora');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: test.info().outputPath('donde-descargar-390.png') });
    await page.setViewportSize({ width: 1280, height: 800 });

    // 'Cerrar' closes it and gives the focus back to the card's button; nothing opened.
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    await expect(dialog).toBeHidden();
    await expect(open).toBeFocused();
    expect(context.pages()).toHaveLength(1);

    // Open again: no serious accessibility problem (last: axe finishes its run in a blank page of its own).
    await open.click();
    await expect(dialog.getByRole('img', { name: 'Código QR del enlace de Beto Pro en App Store' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('by keyboard: Enter opens the dialog, Tab stays inside it, Escape closes it and the focus comes back', async ({
    page,
    request,
    changeApp,
  }) => {
    await changeApp(await signInAsAdmin(page, request), 2, MOBILE_ONLY);
    await page.goto('/apps');
    await page.getByRole('tab', { name: 'Aplicaciones para móvil' }).click();
    const open = page.getByRole('button', { name: 'Abrir Beto Pro' });
    await open.focus();
    await page.keyboard.press('Enter');

    const dialog = page.getByRole('dialog', { name: 'Descarga Beto Pro en tu teléfono' });
    await expect(dialog).toBeVisible();
    expect(await focusIsIn(dialog)).toBe(true);
    // Google Play, App Store, Cerrar, and round again: never out to the page behind.
    const stops: string[] = [];
    for (let press = 0; press < 4; press += 1) {
      await page.keyboard.press('Tab');
      expect(await focusIsIn(dialog)).toBe(true);
      stops.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
    }
    expect(stops).toEqual([
      'Abrir en Google Play (se abre en una pestaña nueva)',
      'Abrir en App Store (se abre en una pestaña nueva)',
      'Cerrar',
      'Abrir en Google Play (se abre en una pestaña nueva)',
    ]);
    await page.keyboard.press('Shift+Tab');
    await expect(dialog.getByRole('button', { name: 'Cerrar' })).toBeFocused();

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(open).toBeFocused();
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, userAgent: IPHONE, isMobile: true, hasTouch: true });

  test('a mobile-only app still opens its store link, with no dialog', async ({
    page,
    context,
    request,
    changeApp,
  }) => {
    const token = await signInAsAdmin(page, request);
    await context.route('https://apps.apple.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>App Store</title>' }),
    );
    await changeApp(token, 2, MOBILE_ONLY);
    await page.goto('/apps');
    await page.getByRole('tab', { name: 'Aplicaciones para móvil' }).click();
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Abrir Beto Pro' }).click(),
    ]);
    await tab.waitForURL(APPLE);
    expect(new URL(tab.url()).searchParams.get('token')).toBeNull();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});
