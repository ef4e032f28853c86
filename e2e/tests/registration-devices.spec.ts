// Nobody is stranded between devices or by an administrator's hand: a registration made on the laptop is finished on
// the phone with the mailed code (the phone asks, beside it, what the laptop had asked), and a person activated from
// the admin panel is mailed 'Tu cuenta está activa' and gets in from that mail. The person is always in Chromium,
// reading their inbox (the SMTP sink); the administrator is a plain HTTP client of the API.
import type { Browser, Page } from '@playwright/test';
import { API_URL, E2E, HOST_URL, MAIL_DIR } from '../support/env';
import {
  codeFromMail,
  expect,
  person,
  portalReady,
  RESET_SUBJECT,
  registerPending,
  registerThroughForm,
  signInThroughForm,
  test,
  VERIFICATION_SUBJECT,
} from '../support/auth';
import { mailsFor, readableText } from '../support/mail-sink';
import { DESKTOP, PHONE, SCREENS } from '../support/screens';

const OTHER_DEVICE = 'Este navegador no tiene los datos de tu registro';
const FORGOTTEN = 'Los datos de tu registro ya no están guardados en el portal';

/** A phone: a browser of its own, nothing shared with the laptop's (no registration id, no session). */
async function phone(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: HOST_URL, viewport: PHONE, isMobile: true, hasTouch: true });
  return context.newPage();
}

/** The link of a mail in the sink whose subject matches (waiting for it to arrive), found after `label: ` in its text. */
async function linkFromMail(email: string, subject: RegExp, label: string): Promise<string> {
  const matching = () => mailsFor(MAIL_DIR, email).filter((received) => subject.test(received.subject));
  await expect.poll(() => matching().length, { message: `no mail '${subject}' to ${email}` }).toBeGreaterThan(0);
  const mail = matching().at(-1);
  const link = new RegExp(`${label}: (\\S+)`).exec(readableText(mail!))?.[1];
  expect(link, readableText(mail!)).toBeTruthy();
  return link!;
}

async function expectOnApps(page: Page, fullName: string): Promise<void> {
  await expect(page).toHaveURL(/\/apps$/);
  await expect(page.getByRole('heading', { level: 1, name: `¡Hola, ${fullName}!` })).toBeVisible();
}

/** Signs out (the confirmation /logout asks) and signs in again with the password: the account has it. */
async function signInAgain(page: Page, email: string, password: string, fullName: string): Promise<void> {
  await page.goto('/logout');
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signInThroughForm(page, email, password);
  await expectOnApps(page, fullName);
}

test('registered on the laptop, verified on the phone: the phone asks for the profile and password, and the account is complete', async ({
  page,
  browser,
}) => {
  const who = person('dos-dispositivos');
  const since = Date.now() - 1000;
  await registerThroughForm(page, who);

  // The mail is opened on the phone: its link leads to the verification page, without this registration's id.
  const mobile = await phone(browser);
  await mobile.goto(await linkFromMail(who.email, VERIFICATION_SUBJECT, 'Ir a la verificación'));
  await portalReady(mobile);
  await expect(mobile.getByText(OTHER_DEVICE)).toBeVisible();
  await mobile.screenshot({ path: test.info().outputPath('verificar-en-el-telefono.png'), fullPage: true });
  await mobile.getByLabel('Código de verificación').fill(await codeFromMail(who.email, VERIFICATION_SUBJECT, since));
  await mobile.getByLabel('Nombre').fill('Rosa');
  await mobile.getByLabel('Apellido').fill('Mamani');
  await mobile.getByLabel('Teléfono', { exact: true }).fill('912 345 678');
  await mobile.getByLabel('Contraseña', { exact: true }).fill('Clave-del-telefono-1');
  await mobile.getByLabel('Confirmar contraseña').fill('Clave-del-telefono-1');
  await mobile.getByRole('button', { name: 'Verificar código' }).click();
  await expectOnApps(mobile, 'Rosa Mamani');

  const token = await mobile.evaluate(() => localStorage.getItem('token'));
  const me = await fetch(`${API_URL}/auth/user`, { headers: { authorization: `Bearer ${token}` } });
  expect(await me.json()).toMatchObject({ email: who.email, name: 'Rosa', lastName: 'Mamani', phone: '+51912345678' });
  await signInAgain(mobile, who.email, 'Clave-del-telefono-1', 'Rosa Mamani');
  // The laptop's password was never proved by the code: it does not sign in.
  const laptop = await fetch(`${API_URL}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: who.email, password: who.password }),
  });
  expect(laptop.status).toBe(401);
  await mobile.context().close();
});

test('registered on this laptop, but the server no longer keeps that registration: the same code, with the profile and password asked beside it, completes the account', async ({
  page,
  request,
}) => {
  await page.setViewportSize(DESKTOP);
  const who = person('registro-desplazado');
  const since = Date.now() - 1000;
  await registerThroughForm(page, who);
  // Five newer registrations of the address (anyone may make them) push this browser's out of the five kept.
  for (let other = 0; other < 5; other += 1) {
    await registerPending(request, { ...who, password: `Clave-de-otro-${other}`, name: 'Otro', lastName: 'Nombre' });
  }

  const code = await codeFromMail(who.email, VERIFICATION_SUBJECT, since);
  await page.getByLabel('Código de verificación').fill(code);
  await page.getByRole('button', { name: 'Verificar código' }).click();
  // Refused without using the code: the page asks for the rest, and the person goes on from the first field.
  await expect(page.getByText(FORGOTTEN)).toBeVisible();
  await expect(page.getByLabel('Nombre')).toBeFocused();
  await expect(page.getByLabel('Código de verificación')).toHaveValue(code);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await page.screenshot({ path: test.info().outputPath('verificar-registro-olvidado-1280.png'), fullPage: true });

  await page.getByLabel('Nombre').fill('Rosa');
  await page.getByLabel('Apellido').fill('Mamani');
  await page.getByLabel('Teléfono', { exact: true }).fill('912 345 678');
  await page.getByLabel('Contraseña', { exact: true }).fill('Clave-nueva-1');
  await page.getByLabel('Confirmar contraseña').fill('Clave-nueva-1');
  await page.getByRole('button', { name: 'Verificar código' }).click();
  await expectOnApps(page, 'Rosa Mamani');
  await signInAgain(page, who.email, 'Clave-nueva-1', 'Rosa Mamani');
  // No registration's password was proved by the code: none signs in.
  for (const password of [who.password, 'Clave-de-otro-4']) {
    const refused = await fetch(`${API_URL}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: who.email, password }),
    });
    expect(refused.status).toBe(401);
  }
});

test('registering again on the phone says why a pending email asks for a password, and leads to where the code goes', async ({
  page,
  browser,
}) => {
  const who = person('pendiente-en-otro');
  const since = Date.now() - 1000;
  await registerThroughForm(page, who);

  const mobile = await phone(browser);
  await mobile.goto('/register');
  await portalReady(mobile);
  await mobile.getByLabel('Email').fill(who.email);
  await mobile.getByLabel('Nombre').fill('Rosa');
  await mobile.getByLabel('Apellido').fill('Mamani');
  await mobile.getByLabel('Teléfono', { exact: true }).fill('912 345 678');
  await mobile.getByRole('button', { name: 'Siguiente' }).click();
  await expect(mobile.getByText('Paso 2 de 2')).toBeVisible();
  await expect(
    mobile.getByText(/Este email ya tiene un registro sin verificar, quizás hecho en otro dispositivo/),
  ).toBeVisible();
  await mobile.screenshot({ path: test.info().outputPath('paso-2-registro-en-otro-dispositivo.png'), fullPage: true });
  await mobile.getByRole('link', { name: 'escríbelo aquí' }).click();

  // What step 1 took is not asked again; the code and a password finish the account.
  await expect(mobile).toHaveURL(/\/verify-email\?email=/);
  await expect(mobile.getByLabel('Nombre')).toHaveValue('Rosa');
  await expect(mobile.getByLabel('Apellido')).toHaveValue('Mamani');
  await mobile.getByLabel('Código de verificación').fill(await codeFromMail(who.email, VERIFICATION_SUBJECT, since));
  await mobile.getByLabel('Contraseña', { exact: true }).fill('Clave-del-telefono-1');
  await mobile.getByLabel('Confirmar contraseña').fill('Clave-del-telefono-1');
  await mobile.getByRole('button', { name: 'Verificar código' }).click();
  await expectOnApps(mobile, 'Rosa Mamani');
  await mobile.context().close();
});

test("activated by an administrator: the person is mailed 'Tu cuenta está activa', and gets in from that mail", async ({
  page,
  request,
}) => {
  const who = person('activada-admin');
  await registerPending(request, who);
  const admin = await request.post(`${API_URL}/auth/login`, {
    data: { email: E2E.adminEmail, password: E2E.adminPassword },
  });
  const { access_token: adminToken } = (await admin.json()) as { access_token: string };
  const users = await request.get(`${API_URL}/user/listar?email=${encodeURIComponent(who.email)}`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const [listed] = ((await users.json()) as { data: { id: number }[] }).data;
  const verified = await request.post(`${API_URL}/user/verify-emails`, {
    data: { userIds: [listed!.id] },
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(verified.status(), await verified.text()).toBe(200);

  // The registration's password does not sign in: /login says why, and where the way in is.
  await page.goto('/login');
  await signInThroughForm(page, who.email, who.password);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Tu cuenta está activa pero aún no tiene contraseña.');
  await expect(alert.getByRole('link', { name: '¿Olvidaste tu contraseña?' })).toHaveAttribute(
    'href',
    `/forgot-password?email=${encodeURIComponent(who.email)}`,
  );
  await page.screenshot({ path: test.info().outputPath('login-cuenta-sin-contrasena.png') });

  // The mail's link: the address is filled in, a code arrives, a password is chosen, and it signs in.
  const link = await linkFromMail(who.email, /^Tu cuenta está activa$/, 'Elegir mi contraseña');
  expect(new URL(link).origin).toBe(HOST_URL);
  const since = Date.now() - 1000;
  await page.goto(link);
  await portalReady(page);
  await expect(page.getByLabel('Email')).toHaveValue(who.email);
  await page.getByRole('button', { name: 'Enviar código de recuperación' }).click();
  await expect(page).toHaveURL(/\/reset-password\?email=/);
  await page.getByLabel('Código').fill(await codeFromMail(who.email, RESET_SUBJECT, since));
  await page.getByLabel('Nueva contraseña').fill('Clave-elegida-1');
  await page.getByLabel('Confirmar contraseña').fill('Clave-elegida-1');
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signInThroughForm(page, who.email, 'Clave-elegida-1');
  await expectOnApps(page, `${who.name} ${who.lastName}`);
});

for (const viewport of SCREENS) {
  test(`on the other device the fields asked beside the code start plain, and the code sent alone leads to them; errors come from the next send (${viewport.width} px)`, async ({
    page,
    browser,
  }, testInfo) => {
    const who = person(`campos-en-blanco-${viewport.width}`);
    const since = Date.now() - 1000;
    await registerThroughForm(page, who);

    const context = await browser.newContext({
      baseURL: HOST_URL,
      viewport,
      ...(viewport === PHONE && { isMobile: true, hasTouch: true }),
    });
    const other = await context.newPage();
    await other.goto(await linkFromMail(who.email, VERIFICATION_SUBJECT, 'Ir a la verificación'));
    await portalReady(other);
    await expect(other.getByText(OTHER_DEVICE)).toBeVisible();
    const invalid = other.locator('[aria-invalid="true"]');
    await expect(invalid).toHaveCount(0);

    // The code first, as the page's title asks: nothing is sent, and the person goes on at 'Nombre', still plain.
    await other.getByLabel('Código de verificación').fill(await codeFromMail(who.email, VERIFICATION_SUBJECT, since));
    await other.getByRole('button', { name: 'Verificar código' }).click();
    await expect(other.getByLabel('Nombre')).toBeFocused();
    await expect(invalid).toHaveCount(0);
    await expect(other.getByText('El nombre es requerido')).toHaveCount(0);
    await other.screenshot({ path: testInfo.outputPath(`otro-dispositivo-${viewport.width}.png`), fullPage: true });

    // Sent again with a field left empty: now it is said where.
    await other.getByLabel('Nombre').fill('Rosa');
    await other.getByRole('button', { name: 'Verificar código' }).click();
    await expect(other.getByText('El apellido es requerido')).toBeVisible();
    await expect(other.getByLabel('Apellido')).toBeFocused();
    await expect(other.getByLabel('Nombre')).not.toHaveAttribute('aria-invalid', 'true');

    await other.getByLabel('Apellido').fill('Mamani');
    await other.getByLabel('Teléfono', { exact: true }).fill('912 345 678');
    await other.getByLabel('Contraseña', { exact: true }).fill('Clave-del-telefono-1');
    await other.getByLabel('Confirmar contraseña').fill('Clave-del-telefono-1');
    await other.getByRole('button', { name: 'Verificar código' }).click();
    await expectOnApps(other, 'Rosa Mamani');
    await context.close();
  });
}
