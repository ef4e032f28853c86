import { API_URL, PARTNER_URL } from '../support/env';
import {
  codeFromMail,
  expect,
  expectSignedInAs,
  person,
  portalReady,
  registerActive,
  signInThroughForm,
  test,
  VERIFICATION_SUBJECT,
} from '../support/auth';

test('an allowed partner redirect_url receives a working token after sign-in', async ({ page, request }) => {
  const who = person('socio');
  await registerActive(request, who);
  await page.goto(`/login?redirect_url=${encodeURIComponent(`${PARTNER_URL}/entrar`)}`);
  await signInThroughForm(page, who.email, who.password);
  await expect.poll(() => new URL(page.url()).origin).toBe(PARTNER_URL);
  const token = new URL(page.url()).searchParams.get('token');
  expect(new URL(page.url()).pathname).toBe('/entrar');
  await expect(page.locator('#token')).toHaveText(token ?? 'missing');
  const me = await request.get(`${API_URL}/auth/user`, { headers: { Authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { email: string }).email).toBe(who.email);
});

test('a hostile redirect_url gets nothing: the person lands on /apps', async ({ page, request }) => {
  const who = person('hostil');
  await registerActive(request, who);
  const requested: string[] = [];
  page.on('request', (req) => requested.push(req.url()));
  await page.goto(`/login?redirect_url=${encodeURIComponent('https://evil.example.net/robar')}`);
  await signInThroughForm(page, who.email, who.password);
  await expect(page).toHaveURL(/\/apps$/);
  expect(requested.filter((url) => new URL(url).hostname === 'evil.example.net')).toEqual([]);
  await expectSignedInAs(page, request, who.email);
});

test('the partner target survives registration and verification', async ({ page }) => {
  const who = person('socio-nuevo');
  const since = Date.now() - 1000;
  await page.goto(`/login?redirect_url=${encodeURIComponent(`${PARTNER_URL}/bienvenida`)}`);
  // The prerendered link is the bare page's; React's, once it has replaced it, carries the target.
  await portalReady(page);
  await page.getByRole('link', { name: 'Registrate' }).click();
  await expect(page).toHaveURL(/\/register\?redirect_url=/);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Nombre').fill(who.name);
  await page.getByLabel('Apellido').fill(who.lastName);
  await page.getByLabel('Teléfono', { exact: true }).fill('987654321');
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await page.getByLabel('Contraseña', { exact: true }).fill(who.password);
  await page.getByLabel('Confirmar contraseña').fill(who.password);
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page).toHaveURL(/\/verify-email\?email=.*&redirect_url=/);
  await page.getByLabel('Código de verificación').fill(await codeFromMail(who.email, VERIFICATION_SUBJECT, since));
  await page.getByRole('button', { name: 'Verificar código' }).click();
  await expect.poll(() => new URL(page.url()).origin).toBe(PARTNER_URL);
  expect(new URL(page.url()).pathname).toBe('/bienvenida');
  await expect(page.locator('#token')).not.toHaveText('sin token');
});

test('a saved link opened signed out is where the sign-in lands; after signing out on purpose, /apps', async ({
  page,
  request,
}) => {
  const who = person('enlace-guardado');
  await registerActive(request, who);
  await page.goto('/perfil?tab=seguridad');
  await expect(page).toHaveURL(/\/login$/);
  await signInThroughForm(page, who.email, who.password);
  await expect(page).toHaveURL(/\/perfil\?tab=seguridad$/);
  await expectSignedInAs(page, request, who.email);

  // Signing out from the avatar menu on that page: the next sign-in of the tab lands in the catalogue.
  await page.getByRole('button', { name: 'Menú de usuario' }).click();
  await page.getByRole('navigation', { name: 'Cuenta' }).getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signInThroughForm(page, who.email, who.password);
  await expect(page).toHaveURL(/\/apps$/);
});
