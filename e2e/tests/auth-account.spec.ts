// A person's account in Chromium from registration to sign-out: the emailed code from the SMTP sink, the profile, the
// password change, the sessions. Up to a minute on a busy two-core machine: nine whole flows in a real browser.
import { API_URL } from '../support/env';
import { SCREENS, widthReport } from '../support/screens';
import { signInAs } from '../support/session';
import {
  codeFromMail,
  expect,
  expectSignedInAs,
  person,
  portalReady,
  registerActive,
  registerPending,
  registerThroughForm,
  RESET_SUBJECT,
  signInThroughForm,
  test,
  VERIFICATION_SUBJECT,
} from '../support/auth';

test('register, read the code from the mail, verify: signed in on /apps; sign out; sign in again', async ({
  page,
  request,
}) => {
  const who = person('registro');
  const since = Date.now() - 1000;
  await page.goto('/register');
  await expect(page.getByRole('combobox', { name: 'País del teléfono' })).toHaveValue('PE');
  await registerThroughForm(page, who);
  await expect(page.getByText(who.email)).toBeVisible();

  const code = await codeFromMail(who.email, VERIFICATION_SUBJECT, since);
  await page.getByLabel('Código de verificación').fill(code);
  await page.getByRole('button', { name: 'Verificar código' }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await expectSignedInAs(page, request, who.email);
  const me = await request.get(`${API_URL}/auth/user`, {
    headers: { Authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('token'))}` },
  });
  expect(await me.json()).toMatchObject({
    name: who.name,
    lastName: who.lastName,
    phone: '+51987654321',
    status: 'active',
  });

  await page.goto('/logout');
  // Opened from an address, /logout asks first (a link alone signs nobody out).
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  await signInThroughForm(page, who.email, who.password);
  await expect(page).toHaveURL(/\/apps$/);
  await expectSignedInAs(page, request, who.email);
});

// A key of libphonenumber-js's metadata: the file that carries it is the phone data (about 48 KB of gzip JavaScript).
const PHONE_METADATA = 'country_calling_codes';

test('/login downloads no phone data (its JavaScript budget); /register brings it when the phone field is first used', async ({
  page,
}) => {
  const scripts: Array<Promise<{ url: string; body: string }>> = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.endsWith('.js'))
      scripts.push(response.text().then((body) => ({ url: response.url(), body })));
  });
  const withPhoneData = async (from: number) =>
    (await Promise.all(scripts))
      .slice(from)
      .filter((script) => script.body.includes(PHONE_METADATA))
      .map((script) => script.url);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Iniciar Sesión', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  expect(await withPhoneData(0)).toEqual([]);

  // The selector lists every country from the page's own table; the rules and their metadata wait for the number.
  await portalReady(page);
  await page.getByRole('link', { name: 'Registrate' }).click();
  await expect(page.getByRole('combobox', { name: 'País del teléfono' })).toHaveValue('PE');
  await expect(page.locator('optgroup[label="Todos los países"] option[value="DE"]')).toHaveText('Alemania (+49)');
  await page.waitForLoadState('networkidle');
  const atRegister = scripts.length;
  expect(await withPhoneData(0)).toEqual([]);
  await page.getByLabel('Teléfono', { exact: true }).focus();
  await expect.poll(async () => (await withPhoneData(atRegister)).length).toBe(1);
  // And the rules work: a Peruvian number that cannot exist is refused in Spanish.
  await page.getByLabel('Teléfono', { exact: true }).fill('812345678');
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByText('El teléfono no es válido para el país elegido')).toBeVisible();
});

test('a wrong password shows the message in the red box and signs nobody in', async ({ page, request }) => {
  const who = person('clave-mala');
  await registerActive(request, who);
  await page.goto('/login');
  await signInThroughForm(page, who.email, 'no-es-la-clave');
  await expect(page.getByRole('alert')).toHaveText('Credenciales inválidas');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('an unverified account is sent to verification, where the mailed code signs it in', async ({ page, request }) => {
  await page.clock.install();
  const who = person('pendiente');
  const since = Date.now() - 1000;
  await registerPending(request, who);
  await page.goto('/login');
  await signInThroughForm(page, who.email, who.password);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Debes verificar tu email antes de iniciar sesión');
  await expect(alert.getByRole('link', { name: 'Ir a verificación de email' })).toBeVisible();
  await expect(page).toHaveURL(/\/verify-email\?email=/);
  // /login showed the reason for two seconds; the verification page repeats it and keeps it past its 5 s messages (the
  // page's clock moved on by the test, not waited for).
  const reason = page.getByRole('status').filter({ hasText: 'Debes verificar tu email antes de iniciar sesión' });
  await expect(reason).toBeVisible();
  await page.clock.fastForward(5_500);
  await expect(reason).toBeVisible();

  const code = await codeFromMail(who.email, VERIFICATION_SUBJECT, since);
  await page.getByLabel('Código de verificación').fill(code);
  await page.getByRole('button', { name: 'Verificar código' }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await expectSignedInAs(page, request, who.email);
});

test('forgot password: code by mail, new password, then sign in with it', async ({ page, request }) => {
  const who = person('olvido');
  await registerActive(request, who);
  const since = Date.now() - 1000;
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(who.email);
  await page.getByRole('button', { name: 'Enviar código de recuperación' }).click();
  await expect(page.getByRole('status')).toBeVisible();
  await expect(page).toHaveURL(/\/reset-password\?email=/);
  await expect(page.getByLabel('Email')).toHaveValue(who.email);

  const code = await codeFromMail(who.email, RESET_SUBJECT, since);
  await page.getByLabel('Código').fill(code);
  await page.getByLabel('Nueva contraseña').fill('Nueva-clave-2');
  await page.getByLabel('Confirmar contraseña').fill('Nueva-clave-2');
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(page.getByRole('status')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await signInThroughForm(page, who.email, who.password);
  await expect(page.getByRole('alert')).toHaveText('Credenciales inválidas');
  await page.getByLabel('Contraseña', { exact: true }).fill('Nueva-clave-2');
  await page.getByRole('button', { name: 'Iniciar Sesión', exact: true }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await expectSignedInAs(page, request, who.email);
});

test('a profile edit survives a reload', async ({ page, request }) => {
  await page.clock.install();
  const who = person('perfil');
  await registerActive(request, who);
  await page.goto('/login');
  await signInThroughForm(page, who.email, who.password);
  await expect(page).toHaveURL(/\/apps$/);

  await page.goto('/perfil');
  await expect(page.getByRole('heading', { name: `${who.name} ${who.lastName}` })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Tu plan actual' })).toBeVisible();
  await expect(page.getByLabel('Apellido')).toHaveValue(who.lastName);
  await page.getByLabel('Nombre').fill('Lucía Elena');
  // A blank last name is refused as a blank name is, before anything is sent.
  await page.getByLabel('Apellido').fill('  ');
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByRole('alert')).toHaveText('El apellido es requerido');
  await page.getByLabel('Apellido').fill('Quispe Mamani');
  await page.getByLabel('Teléfono', { exact: true }).fill('912 345 678');
  // The page's clock stands still from here until the test moves it: '✓ Actualizado' stays, then its 3 s pass.
  await page.clock.pauseAt(Date.now() + 1_000);
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByRole('button', { name: '✓ Actualizado' })).toBeVisible();
  await page.clock.fastForward(3_000);
  await expect(page.getByRole('button', { name: 'Guardar cambios' })).toBeVisible();
  await page.clock.resume();

  await page.reload();
  await expect(page.getByLabel('Nombre')).toHaveValue('Lucía Elena');
  await expect(page.getByLabel('Apellido')).toHaveValue('Quispe Mamani');
  await expect(page.getByLabel('Teléfono', { exact: true })).toHaveValue('912 345 678');
  await expect(page.getByRole('combobox', { name: 'País del teléfono' })).toHaveValue('PE');
  await expect(page.getByRole('heading', { name: 'Lucía Elena Quispe Mamani' })).toBeVisible();
});

test('the password tab changes the password and keeps this session', async ({ page, request }) => {
  const who = person('clave-perfil');
  await registerActive(request, who);
  await page.goto('/login');
  await signInThroughForm(page, who.email, who.password);
  await expect(page).toHaveURL(/\/apps$/);
  await page.goto('/perfil');
  await page.getByRole('tab', { name: 'Contraseña' }).click();
  await page.getByLabel('Contraseña actual').fill(who.password);
  await page.getByLabel('Nueva contraseña').fill('Otra-clave-3');
  await page.getByRole('button', { name: 'Actualizar contraseña' }).click();
  await expect(page.getByRole('status')).toHaveText('Las contraseñas se actualizaron correctamente');
  await expect(page.getByLabel('Contraseña actual')).toHaveValue('');
  await page.reload();
  await expect(page).toHaveURL(/\/perfil$/);
  await expectSignedInAs(page, request, who.email);
});

for (const viewport of SCREENS) {
  test(`the profile fits a ${viewport.width} px screen: the name, every tab and the form in view, 'Guardar cambios' reached by a tap`, async ({
    browser,
    request,
  }, testInfo) => {
    const who = person(`perfil-ancho-${viewport.width}`);
    await registerActive(request, who);
    const context = await browser.newContext({ viewport, hasTouch: true });
    const page = await context.newPage();
    await page.clock.install();
    await signInAs(page, request, who.email, who.password);
    await page.goto('/perfil');
    const name = page.getByRole('heading', { name: `${who.name} ${who.lastName}` });
    await expect(name).toBeInViewport({ ratio: 1 });
    await expect(page.getByRole('combobox', { name: 'País del teléfono' })).toHaveValue('PE');
    await page.screenshot({ path: testInfo.outputPath(`perfil-${viewport.width}.png`), fullPage: true });
    expect(await widthReport(page)).toEqual({ scrollWidth: viewport.width, viewport: viewport.width, wide: [] });
    for (const tab of ['Información del perfil', 'Contraseña', 'Seguridad']) {
      await expect(page.getByRole('tab', { name: tab })).toBeInViewport({ ratio: 1 });
    }
    for (const field of [
      page.getByLabel('Nombre'),
      page.getByLabel('Apellido'),
      page.getByLabel('Teléfono', { exact: true }),
    ]) {
      await field.scrollIntoViewIfNeeded();
      await expect(field).toBeInViewport({ ratio: 1 });
    }

    // Nothing lies over the button: a tap on it saves (the page's clock stands still: '✓ Actualizado' stays).
    await page.getByLabel('Nombre').fill('Ana');
    await page.clock.pauseAt(Date.now() + 1_000);
    await page.getByRole('button', { name: 'Guardar cambios' }).tap();
    await expect(page.getByRole('button', { name: '✓ Actualizado' })).toBeVisible();
    await expect(page.getByRole('heading', { name: `Ana ${who.lastName}` })).toBeVisible();
    await context.close();
  });

  test(`a reset that succeeded lands on /login with the email filled in, ready for the new password (${viewport.width} px)`, async ({
    browser,
    request,
  }) => {
    const who = person(`reset-login-${viewport.width}`);
    await registerActive(request, who);
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const since = Date.now() - 1000;
    await page.goto(`/forgot-password`);
    await page.getByLabel('Email').fill(who.email);
    await page.getByRole('button', { name: 'Enviar código de recuperación' }).click();
    await expect(page).toHaveURL(/\/reset-password\?email=/);
    await page.getByLabel('Código').fill(await codeFromMail(who.email, RESET_SUBJECT, since));
    await page.getByLabel('Nueva contraseña').fill('Nueva-clave-7');
    await page.getByLabel('Confirmar contraseña').fill('Nueva-clave-7');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();

    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel('Email')).toHaveValue(who.email);
    await expect(page.getByLabel('Contraseña', { exact: true })).toBeFocused();
    await page.keyboard.type('Nueva-clave-7');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/apps$/);
    await expectSignedInAs(page, request, who.email);
    await context.close();
  });
}
