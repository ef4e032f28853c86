// The sign-in pages, the registration's first step with its errors and the profile, each scanned by axe in Chromium at
// a phone's width and a desktop's. About a minute on a busy two-core machine: every scan renders and audits a whole
// page, in a real browser.
import { expect, person, registerActive, seriousViolations, signInThroughForm, test } from '../support/auth';

const PAGES = [
  { name: 'login', path: '/login?error=auth_failed', heading: 'Iniciar Sesión' },
  { name: 'register', path: '/register', heading: 'Crear cuenta' },
  { name: 'verify-email', path: '/verify-email?email=lucia%40example.com', heading: 'Verifica tu email' },
  { name: 'forgot-password', path: '/forgot-password', heading: 'Recuperar contraseña' },
  { name: 'reset-password', path: '/reset-password?email=lucia%40example.com', heading: 'Cambiar contraseña' },
  { name: 'google-callback-error', path: '/google-callback?error=auth_failed', heading: 'Error de Autenticación' },
  {
    name: 'datos-personales',
    path: '/playstoreapps/beto/datos-personales',
    heading: 'Eliminación de datos personales',
  },
];

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  // One test per screen: each loads its page and runs axe (a few seconds each on a busy machine; eight in one test
  // would cross its 30 s limit when another build shares the cores).
  for (const screen of PAGES) {
    test(`${screen.name} passes axe at ${viewport.width} px`, async ({ browser }, testInfo) => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(screen.path);
      await expect(page.getByRole('heading', { name: screen.heading })).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`${screen.name}-${viewport.width}.png`), fullPage: true });
      expect(await seriousViolations(page), screen.name).toEqual([]);
      await context.close();
    });
  }

  test(`registration's step 1 with its errors passes axe at ${viewport.width} px`, async ({ browser }, testInfo) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto('/register');
    await page.getByRole('button', { name: 'Siguiente' }).click();
    await expect(page.getByText('El nombre es requerido')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`register-errors-${viewport.width}.png`), fullPage: true });
    expect(await seriousViolations(page), 'register errors').toEqual([]);
    await context.close();
  });

  test(`the profile passes axe at ${viewport.width} px`, async ({ browser, request }, testInfo) => {
    const who = person(`a11y-${viewport.width}`);
    await registerActive(request, who);
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto('/login');
    await signInThroughForm(page, who.email, who.password);
    await expect(page).toHaveURL(/\/apps$/);
    await page.goto('/perfil');
    await expect(page.getByRole('heading', { name: 'Tu plan actual' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`perfil-${viewport.width}.png`), fullPage: true });
    expect(await seriousViolations(page), 'perfil').toEqual([]);
    await page.getByRole('tab', { name: 'Contraseña' }).click();
    await page.screenshot({ path: testInfo.outputPath(`perfil-clave-${viewport.width}.png`), fullPage: true });
    expect(await seriousViolations(page), 'perfil contraseña').toEqual([]);
    await context.close();
  });
}
