// The admin panel in the composed product, against the real API. People are registered through the real registration
// call (they stay pending until someone verifies them). About a minute on a busy two-core machine: whole flows at two
// widths in a real browser, and axe's scan of every admin page at each.
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import {
  codeFromMail,
  expect,
  person,
  registerActive,
  registerPending,
  RESET_SUBJECT,
  seriousViolations,
  test,
  type Person,
} from '../support/auth';
import { API_URL, MAIL_DIR } from '../support/env';
import { mailsFor, readableText } from '../support/mail-sink';
import { signInAs, signInAsAdmin } from '../support/session';

/** A phone and a desktop window: every screen is checked at both. */
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

async function apiLogin(request: APIRequestContext, who: Person): Promise<string> {
  const response = await request.post(`${API_URL}/auth/login`, { data: { email: who.email, password: who.password } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function currentUser(request: APIRequestContext, token: string) {
  return request.get(`${API_URL}/auth/user`, { headers: { Authorization: `Bearer ${token}` } });
}

/** Filters the list down to one email (status filter first, then Search) and answers that user's row. */
async function findUser(page: Page, email: string, status: string) {
  await page.getByLabel('Estado').selectOption(status);
  await page.getByLabel('Filtrar por email').fill(email);
  await page.getByRole('button', { name: 'Buscar' }).click();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  return row;
}

/**
 * Opens the admin panel at /admin and follows the side panel's link to a page, as an admin does. (A first load of a
 * nested address such as /admin/usuarios does not start the shell yet: README, known problems.)
 */
async function openAdmin(page: Page, link: 'Usuarios' | 'Resumen' | 'Aplicaciones') {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Gestión de Usuarios' })).toBeVisible();
  // On small screens the side panel opens with its toggle.
  const toggle = page.getByRole('button', { name: /Abrir menú/ });
  if (await toggle.isVisible()) await toggle.click();
  await page.getByRole('navigation', { name: 'Panel de administración' }).getByRole('link', { name: link }).click();
}

async function asUser(browser: Browser, request: APIRequestContext, who: Person) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, request, who.email, who.password);
  return { context, page };
}

test('an admin finds a pending user, verifies them so they can sign in, and gives them PRO', async ({
  page,
  request,
  browser,
}) => {
  const who = person('pendiente');
  await registerPending(request, who);
  const refused = await request.post(`${API_URL}/auth/login`, { data: { email: who.email, password: who.password } });
  expect(refused.status()).toBe(403);

  await signInAsAdmin(page, request);
  await openAdmin(page, 'Usuarios');
  await expect(page).toHaveURL(/\/admin\/usuarios$/);
  await expect(page.getByRole('heading', { name: 'Gestión de Usuarios' })).toBeVisible();
  const verify = page.getByRole('button', { name: 'Verificar', exact: true });
  await expect(verify).toBeDisabled();

  const row = await findUser(page, who.email, 'pending_verification');
  await expect(row).toContainText('Pendiente Verificación');
  await expect(row).toContainText(`${who.name} ${who.lastName}`);
  await row.getByRole('checkbox').check();
  await verify.click();
  await page
    .getByRole('dialog', { name: 'Verificar usuarios' })
    .getByRole('button', { name: 'Verificar', exact: true })
    .click();
  await expect(page.getByText(/^1 usuario\(s\) verificado\(s\) exitosamente/)).toBeVisible();
  // Still filtered on pending: the verified user has left the list.
  await expect(page.getByText('No se encontraron usuarios')).toBeVisible();

  // Verified by hand, the account has no password (nobody proved the registered one is the owner's); the person
  // creates one with '¿Olvidaste tu contraseña?'.
  expect(
    (await request.post(`${API_URL}/auth/login`, { data: { email: who.email, password: who.password } })).status(),
  ).toBe(401);
  const since = Date.now() - 1000;
  expect((await request.post(`${API_URL}/auth/forgot-password`, { data: { email: who.email } })).status()).toBe(200);
  const code = await codeFromMail(who.email, RESET_SUBJECT, since);
  const changed = await request.post(`${API_URL}/auth/change-password`, {
    data: { email: who.email, code, newPassword: who.password },
  });
  expect(changed.status(), await changed.text()).toBe(200);
  const token = await apiLogin(request, who);

  const active = await findUser(page, who.email, 'active');
  await expect(active).toContainText('Activo');
  await active.getByRole('button', { name: `Planes de ${who.email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Planes del Usuario' });
  await expect(dialog.getByRole('heading', { name: 'Beto Pro' })).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'C+Suite Completa' })).toHaveCount(0);
  const beto = dialog.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Beto Pro' }) });
  await beto.getByLabel('Plan').selectOption({ label: 'PRO' });
  await beto.getByLabel('Fecha de vencimiento').fill('2030-06-30');
  await beto.getByRole('button', { name: 'Guardar Beto Pro' }).click();
  await expect(dialog.getByText('Plan actualizado exitosamente!')).toBeVisible();
  await expect(beto.getByLabel('Plan')).toHaveValue(/\d+/);
  await expect(beto.getByLabel('Fecha de vencimiento')).toHaveValue('2030-06-30');

  const me = (await (await currentUser(request, token)).json()) as {
    planesUsuarios: Array<{ app: { nombre: string }; plan: { nombre: string }; fechaVencimiento: string }>;
  };
  const betoPlan = me.planesUsuarios.find((entry) => entry.app.nombre === 'Beto Pro');
  expect(betoPlan?.plan.nombre).toBe('PRO');
  expect(betoPlan?.fechaVencimiento).toBe('2030-06-30T00:00:00.000Z');

  // The user's own apps page shows the new plan among the badges.
  const user = await asUser(browser, request, who);
  await user.page.goto('/apps');
  await expect(user.page.getByText('Beto Pro: PRO')).toBeVisible();
  await user.context.close();
});

test('suspending a user ends their session at once; reactivating lets them sign in again', async ({
  page,
  request,
}) => {
  const who = person('suspendida');
  await registerActive(request, who);
  const token = await apiLogin(request, who);
  expect((await currentUser(request, token)).status()).toBe(200);

  await signInAsAdmin(page, request);
  await openAdmin(page, 'Usuarios');
  const row = await findUser(page, who.email, 'active');
  await row.getByRole('button', { name: `Suspender a ${who.email}` }).click();
  // Suspending is confirmed first.
  await page.getByRole('dialog', { name: 'Suspender usuario' }).getByRole('button', { name: 'Suspender' }).click();
  await expect(page.getByText(`${who.email} ha sido suspendido`)).toBeVisible();
  // The session that was open is told why at its next call (403 USER_SUSPENDED).
  const told = await currentUser(request, token);
  expect(told.status()).toBe(403);
  expect(((await told.json()) as { code: string }).code).toBe('USER_SUSPENDED');

  const suspended = await findUser(page, who.email, 'suspended');
  await expect(suspended).toContainText('Suspendido');
  await suspended.getByRole('button', { name: `Reactivar a ${who.email}` }).click();
  await expect(page.getByText(`${who.email} ha sido reactivado`)).toBeVisible();
  await apiLogin(request, who);
});

test("'Editar' changes a person's name, phone and role through editar; the audit log says so", async ({
  page,
  request,
}) => {
  const who = person('editada');
  await registerActive(request, who);
  await signInAsAdmin(page, request);
  await openAdmin(page, 'Usuarios');
  const row = await findUser(page, who.email, 'active');
  await row.getByRole('button', { name: `Editar a ${who.email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Editar usuario' });
  await dialog.getByLabel('Nombre').fill('Marisol');
  await dialog.getByLabel('Teléfono').fill('+51 987 654 321');
  await dialog.getByLabel('Rol').selectOption('Administrador');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText(`${who.email} ha sido actualizado`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Marisol');
  await expect(row).toContainText('Administrador');

  const token = await apiLogin(request, who);
  const user = (await (await currentUser(request, token)).json()) as { name: string; phone: string; role: number };
  expect(user).toMatchObject({ name: 'Marisol', phone: '+51987654321', role: 1 });

  // A phone that is not valid for its country is refused in Spanish and changes nothing.
  await row.getByRole('button', { name: `Editar a ${who.email}` }).click();
  await dialog.getByLabel('Teléfono').fill('+51 123 456 789');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('El teléfono no es válido para el país elegido');
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  expect(((await (await currentUser(request, token)).json()) as { phone: string }).phone).toBe('+51987654321');

  await openAdmin(page, 'Resumen');
  const audit = page.getByRole('row').filter({ hasText: 'Editó el usuario' }).filter({ hasText: who.email });
  await expect(audit.first()).toContainText('Nombre: Marisol');
  await expect(audit.first()).toContainText('Rol: Administrador');
});

test('the dashboard shows the figures and the audit log; the apps page creates and edits apps', async ({
  page,
  request,
}) => {
  await signInAsAdmin(page, request);
  await openAdmin(page, 'Resumen');
  await expect(page.getByRole('heading', { name: 'Dashboard de Administración' })).toBeVisible();
  for (const title of ['Total de usuarios', 'Apps activas', 'Suscripciones activas', 'Nuevas suscripciones']) {
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
  }
  await expect(page.getByTestId('bar')).toHaveCount(14);
  await expect(page.getByTestId('line')).toHaveCount(1);
  const chart = page.locator('figure svg').first();
  expect((await chart.boundingBox())?.height).toBe(250);
  await expect(page.getByRole('heading', { name: 'Distribución de planes' })).toBeVisible();
  // Plans read 'Gratis'; without billing there is no revenue, and the chart says so.
  await expect(page.getByText('Control Max 360 · Gratis')).toBeVisible();
  await expect(
    page.getByText('La facturación no está configurada: no hay cobros que contar.', { exact: false }),
  ).toBeVisible();

  await page.getByRole('link', { name: 'Ver reportes' }).click();
  await expect(page.getByRole('heading', { name: 'Registro de auditoría' })).toBeInViewport();

  await page.getByRole('link', { name: 'Configurar apps' }).click();
  await expect(page).toHaveURL(/\/admin\/apps$/);
  await expect(page.getByRole('heading', { name: 'Pagina de apps' })).toBeVisible();
  const name = `Medidor E2E ${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Nueva aplicación', exact: true }).click();
  const create = page.getByRole('dialog', { name: 'Nueva aplicación' });
  await create.getByLabel('Nombre').fill(name);
  await create.getByLabel('URL web').fill('https://medidor.example.com');
  await create.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Aplicación agregada')).toBeVisible();
  await expect(page.getByRole('listitem').last()).toContainText(name);

  // The new app is disabled on web and mobile (the form's default), so no other page of the portal shows it.
  await page.getByRole('button', { name: `Editar ${name}` }).click();
  const edit = page.getByRole('dialog', { name: `Editar ${name}` });
  await expect(edit.getByLabel('URL web')).toHaveValue('https://medidor.example.com');
  await edit.getByLabel('Descripción', { exact: true }).fill('Lecturas de caudal en vivo');
  await edit.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Aplicación actualizada')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: name })).toContainText('Lecturas de caudal en vivo');

  // Both are on record.
  await page
    .getByRole('navigation', { name: 'Panel de administración' })
    .getByRole('link', { name: 'Resumen' })
    .click();
  await page.getByRole('link', { name: 'Ver reportes' }).click();
  const log = page.getByRole('region', { name: 'Registro de auditoría' });
  await expect(
    log.getByRole('row').filter({ hasText: name }).filter({ hasText: 'Modificó la aplicación' }),
  ).toContainText('Campos: descripcion');
  await expect(log.getByRole('row').filter({ hasText: name }).filter({ hasText: 'Creó la aplicación' })).toHaveCount(1);
});

/** The page is no wider than the screen: what does not fit scrolls inside its own box, not the page sideways. */
async function expectNoSidewaysScroll(page: Page, width: number, where: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), where).toBeLessThanOrEqual(width);
}

for (const viewport of SIZES) {
  test.describe(`at ${viewport.width} × ${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test(`'Verificar' says why it is greyed out, and that the registered password is dropped for a mail to choose one (${viewport.name})`, async ({
      page,
      request,
    }) => {
      const who = person('verificar');
      await registerPending(request, who);
      await signInAsAdmin(page, request);
      await openAdmin(page, 'Usuarios');
      const verify = page.getByRole('button', { name: 'Verificar', exact: true });
      await expect(verify).toBeDisabled();
      const hint = page.getByText(
        'Para verificar, elige el estado «Pendiente Verificación»: solo entonces se pueden marcar personas.',
      );
      await expect(hint).toBeVisible();

      const row = await findUser(page, who.email, 'pending_verification');
      await expect(hint).toHaveCount(0);
      await expect(page.getByText('Marca a las personas que quieras verificar.')).toBeVisible();
      await row.getByRole('checkbox').check();
      await verify.click();
      const dialog = page.getByRole('dialog', { name: 'Verificar usuarios' });
      await expect(dialog).toContainText('Vas a activar 1 cuenta sin el código que se envió a su correo.');
      await expect(dialog).toContainText(
        'La contraseña que se escribió al registrarse no se guarda: nadie comprobó que quien la escribió sea el dueño del correo.',
      );
      await expect(dialog).toContainText(
        'Recibirá el correo «Tu cuenta está activa» con el enlace «Elegir mi contraseña».',
      );
      await expectNoSidewaysScroll(page, viewport.width, 'the question before verifying');
      // Escape asks nothing of the server.
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(verify).toBeFocused();
      await expect(row).toContainText('Pendiente Verificación');

      await verify.click();
      await dialog.getByRole('button', { name: 'Verificar', exact: true }).click();
      await expect(page.getByRole('status').filter({ hasText: 'verificado(s) exitosamente' })).toHaveText(
        '1 usuario(s) verificado(s) exitosamente. Recibirá un correo para elegir su contraseña: la que escribió al registrarse no se guardó.',
      );
      // Nobody is left to mark under the filter, and nothing asks to.
      await expect(page.getByText('No se encontraron usuarios')).toBeVisible();
      await expect(page.getByText('Marca a las personas que quieras verificar.')).toHaveCount(0);

      // What the screen said is what happened: the mail came, and the registered password does not sign in.
      await expect
        .poll(() => mailsFor(MAIL_DIR, who.email).map((mail) => mail.subject), { timeout: 25_000 })
        .toContain('Tu cuenta está activa');
      const mail = mailsFor(MAIL_DIR, who.email).find((m) => m.subject === 'Tu cuenta está activa')!;
      expect(readableText(mail)).toContain('Elegir mi contraseña');
      const refused = await request.post(`${API_URL}/auth/login`, {
        data: { email: who.email, password: who.password },
      });
      expect(refused.status()).toBe(401);
      expect(((await refused.json()) as { code: string }).code).toBe('PASSWORD_NOT_SET');
    });

    test(`a failed 'Verificar' says the spec's words, not the thrown text (${viewport.name})`, async ({
      page,
      request,
    }) => {
      const who = person('verificar-falla');
      await registerPending(request, who);
      await signInAsAdmin(page, request);
      await page.route(
        (url) => url.href === `${API_URL}/user/verify-emails`,
        async (route) => {
          if (route.request().method() !== 'POST') return route.continue();
          // The API's own headers (so the browser reads the answer), from a request that verifies nobody.
          const response = await route.fetch({ postData: JSON.stringify({ userIds: [] }) });
          return route.fulfill({
            response,
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ statusCode: 500, message: 'Error interno del servidor' }),
          });
        },
      );
      await openAdmin(page, 'Usuarios');
      const row = await findUser(page, who.email, 'pending_verification');
      await row.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Verificar', exact: true }).click();
      await page
        .getByRole('dialog', { name: 'Verificar usuarios' })
        .getByRole('button', { name: 'Verificar', exact: true })
        .click();
      await expect(page.getByRole('alert')).toHaveText('Error al verificar usuarios. Por favor, intenta de nuevo.');
      await expect(page.getByText(/Error al verificar Ids/)).toHaveCount(0);
      // Nothing changed, and the selection is kept for another try.
      await expect(row).toContainText('Pendiente Verificación');
      await expect(row.getByRole('checkbox')).toBeChecked();
    });

    test(`'Planes del Usuario' names whose plans they are, a free plan has no expiry, and the log says 'Gratis' (${viewport.name})`, async ({
      page,
      request,
    }) => {
      const who = person('planes');
      await registerActive(request, who);
      await signInAsAdmin(page, request);
      await openAdmin(page, 'Usuarios');
      const row = await findUser(page, who.email, 'active');
      await row.getByRole('button', { name: `Planes de ${who.email}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Planes del Usuario' });
      await expect(dialog.getByRole('heading', { level: 2 })).toHaveText('Planes del Usuario');
      await expect(dialog.getByText(`${who.name} ${who.lastName} · ${who.email}`)).toBeVisible();

      // A registered person has the free plan of every app: it never expires, and no date is shown for it.
      const beto = dialog.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Beto Pro' }) });
      await expect(beto.getByLabel('Plan')).toHaveValue(/\d+/);
      await expect(beto.getByLabel('Plan').locator('option:checked')).toHaveText('Gratis');
      await expect(beto.getByText('No vence')).toBeVisible();
      await expect(beto.getByLabel('Fecha de vencimiento')).toHaveCount(0);
      await expectNoSidewaysScroll(page, viewport.width, 'Planes del Usuario');

      await beto.getByLabel('Plan').selectOption({ label: 'PRO' });
      await beto.getByLabel('Fecha de vencimiento').fill('2030-06-30');
      await beto.getByRole('button', { name: 'Guardar Beto Pro' }).click();
      await expect(dialog.getByText('Plan actualizado exitosamente!')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();

      // The side panel names the dashboard in Spanish; its page keeps the spec's title.
      await openAdmin(page, 'Resumen');
      await expect(page.getByRole('heading', { name: 'Dashboard de Administración' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Dashboard', exact: true })).toHaveCount(0);
      const log = page.getByRole('region', { name: 'Registro de auditoría' });
      await expect(
        log.getByRole('row').filter({ hasText: who.email }).filter({ hasText: 'Cambió el plan' }).first(),
      ).toContainText('Beto Pro: Gratis → PRO, vence 30/6/2030');
    });
  });
}

// In the run's output folder (`--output`), so a concurrent run that cleans test-results does not take them away.
const shots = (name: string) => test.info().outputPath(`${name}.png`);

for (const viewport of SIZES) {
  test(`the admin pages have no serious accessibility problem (${viewport.name})`, async ({ browser, request }) => {
    // Five axe scans and five full-page screenshots come close to the default 30 s on a busy machine.
    test.slow();
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await signInAsAdmin(page, request);

    await openAdmin(page, 'Usuarios');
    await expect(page.getByRole('row').nth(1)).toBeVisible();
    expect(await seriousViolations(page), '/admin/usuarios').toEqual([]);
    await expectNoSidewaysScroll(page, viewport.width, '/admin/usuarios');
    await page.screenshot({ path: shots(`usuarios-${viewport.width}`), fullPage: true });

    await page
      .getByRole('button', { name: /^Planes de / })
      .first()
      .click();
    await expect(
      page.getByRole('dialog', { name: 'Planes del Usuario' }).getByRole('heading', { name: 'Beto Pro' }),
    ).toBeVisible();
    expect(await seriousViolations(page), 'Planes del Usuario').toEqual([]);
    await expectNoSidewaysScroll(page, viewport.width, 'Planes del Usuario');
    await page.screenshot({ path: shots(`planes-${viewport.width}`) });
    await page.keyboard.press('Escape');

    await openAdmin(page, 'Resumen');
    // Without billing the revenue line lies flat on the axis (0 USD every month).
    await expect(page.getByRole('table', { name: 'Ingresos mensuales (USD)' })).toBeAttached();
    await expect(page.getByTestId('line')).toHaveCount(1);
    expect(await seriousViolations(page), '/admin/dashboard').toEqual([]);
    await expectNoSidewaysScroll(page, viewport.width, '/admin/dashboard');
    await page.screenshot({ path: shots(`dashboard-${viewport.width}`), fullPage: true });

    await openAdmin(page, 'Aplicaciones');
    await expect(page.getByRole('button', { name: 'Editar Beto Pro' })).toBeVisible();
    expect(await seriousViolations(page), '/admin/apps').toEqual([]);
    await expectNoSidewaysScroll(page, viewport.width, '/admin/apps');
    await page.screenshot({ path: shots(`apps-${viewport.width}`), fullPage: true });

    if (viewport.width < 640) {
      await expect(page.getByRole('link', { name: 'Usuarios' })).toBeHidden();
      await page.getByRole('button', { name: /Abrir menú/ }).click();
      await expect(page.getByRole('link', { name: 'Usuarios' })).toBeVisible();
      expect(await seriousViolations(page), 'side panel open').toEqual([]);
      await expectNoSidewaysScroll(page, viewport.width, 'side panel open');
      await page.screenshot({ path: shots(`menu-${viewport.width}`) });
    }
    await context.close();
  });
}

test('a signed-in user who is not an administrator is refused', async ({ page, request }) => {
  const who = person('curiosa');
  await registerActive(request, who);
  await signInAs(page, request, who.email, who.password);
  await page.goto('/admin');
  await expect(page.getByText('Acceso Denegado')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Gestión de Usuarios' })).toHaveCount(0);
  // The top bar stays, with its way back to the apps.
  await expect(page.getByRole('button', { name: 'Menú de usuario' })).toBeVisible();
});
