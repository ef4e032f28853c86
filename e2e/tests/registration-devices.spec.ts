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

const PHONE = { width: 390, height: 844 };
const OTHER_DEVICE = 'Este navegador no tiene los datos de tu registro';

/** A phone: a browser of its own, nothing shared with the laptop's (no registration id, no session). */
async function phone(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: HOST_URL, viewport: PHONE, isMobile: true, hasTouch: true });
  return context.newPage();
}

/** The link of a mail in the sink whose subject matches, found after `label: ` in its text. */
function linkFromMail(email: string, subject: RegExp, label: string): string {
  const mail = mailsFor(MAIL_DIR, email)
    .filter((received) => subject.test(received.subject))
    .at(-1);
  expect(mail, `no mail '${subject}' to ${email}`).toBeTruthy();
  const link = new RegExp(`${label}: (\\S+)`).exec(readableText(mail!))?.[1];
  expect(link, readableText(mail!)).toBeTruthy();
  return link!;
}

async function expectOnApps(page: Page, fullName: string): Promise<void> {
  await expect(page).toHaveURL(/\/apps$/);
  await expect(page.getByRole('heading', { level: 1, name: `¡Bienvenido, ${fullName}!` })).toBeVisible();
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
  await mobile.goto(linkFromMail(who.email, VERIFICATION_SUBJECT, 'Ir a la verificación'));
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
  await expect
    .poll(() => mailsFor(MAIL_DIR, who.email).some((mail) => mail.subject === 'Tu cuenta está activa'))
    .toBe(true);
  const link = linkFromMail(who.email, /^Tu cuenta está activa$/, 'Elegir mi contraseña');
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
