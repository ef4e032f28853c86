// Events for a partner app, seen and steered in the admin panel: the administrator subscribes a receiver (a process
// that verifies every message with the standardwebhooks package) to the server app's plan events, sees its secret
// once, the plan of a person who signed in to that app changes, the delivery shows its failed first try in Spanish
// and then its delivery, and 'Reenviar' sends the same message again. The panel at 390×844 and 1280×800, screenshots in /tmp/partner-events-e2e-shots/.
import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { person, registerActive, seriousViolations, signInThroughForm } from '../support/auth';
import { API_URL, HOST_URL } from '../support/env';
import { adminToken, expect, SERVER_APP_NAME, test } from '../support/oidc';
import { DESKTOP, PHONE, widthReport } from '../support/screens';
import { signInAsAdmin } from '../support/session';
import { startReceiver } from '../../api/test/helpers/webhook-receiver';

const SHOTS = '/tmp/partner-events-e2e-shots';
/** The suite's server app, Beto Pro's client (the catalogue's app 2), asking for the person's plan. */
const APP_ID = 2;
const CLIENT = SERVER_APP_NAME;

async function api<T>(request: APIRequestContext, token: string, method: 'get' | 'post', path: string, data?: object) {
  const response = await request[method](`${API_URL}/${path}`, {
    headers: { Authorization: `Bearer ${token}` },
    ...(data ? { data } : {}),
  });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as T;
}

/** 'Actualizar' until the newest delivery's row says `text` (a delivery's state changes on its own). */
async function untilDelivery(area: Locator, url: string, text: string | RegExp): Promise<Locator> {
  const row = area.getByTestId('entrega').first();
  await expect
    .poll(
      async () => {
        await area.getByRole('button', { name: `Actualizar entregas a ${url}` }).click();
        return (await row.textContent({ timeout: 2_000 }).catch(() => '')) ?? '';
      },
      { message: `a delivery that says ${text}`, timeout: 25_000, intervals: [500, 1_000] },
    )
    .toMatch(text);
  return row;
}

/** The whole page, or what the screen shows while a dialog is open (its backdrop covers the screen only). */
async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
}

test('an administrator subscribes a receiver, sees its secret once, follows a delivery and resends it', async ({
  browser,
  page,
  request,
  relyingParties: { serverApp },
}) => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  const receiver = await startReceiver();
  try {
    const admin = await adminToken();
    // A person who signed in to the app once, in a browser of their own: the app knows them now.
    const who = person('eventos');
    await registerActive(request, who);
    const theirs = await browser.newContext({ baseURL: HOST_URL });
    const theirPage = await theirs.newPage();
    await theirPage.goto('/login');
    await signInThroughForm(theirPage, who.email, who.password);
    await expect(theirPage).toHaveURL(/\/apps$/);
    await theirPage.goto(serverApp.url);
    await theirPage.getByRole('link', { name: 'Entrar con el portal' }).click();
    await expect(theirPage.getByText(`Sesión en la app: ${who.email}`)).toBeVisible();
    await theirs.close();

    await page.setViewportSize(DESKTOP);
    await signInAsAdmin(page, request);
    await page.goto('/admin/apps');
    const toggle = page.getByRole('button', { name: `Eventos de ${CLIENT}` });
    await toggle.click();
    const area = page.getByRole('region', { name: `Eventos de ${CLIENT}` });
    await expect(area.getByText('Esta app no tiene suscripciones a eventos.')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // A new subscription: the receiver's address and two plan events; the secret once, then gone from the page.
    await area.getByRole('button', { name: `Nueva suscripción de ${CLIENT}` }).click();
    const form = page.getByRole('dialog', { name: `Nueva suscripción de ${CLIENT}` });
    await form.getByLabel('URL del receptor').fill(receiver.url);
    await form.getByLabel('Plan asignado (plan.asignado)').check();
    await form.getByLabel('Plan cambiado (plan.cambiado)').check();
    await shoot(page, 'nueva-suscripcion-escritorio', false);
    await form.getByRole('button', { name: 'Guardar' }).click();
    const secretDialog = page.getByRole('dialog', { name: 'Secreto de la suscripción' });
    await expect(secretDialog.getByText(/no se volverá a mostrar/)).toBeVisible();
    const secret = await secretDialog.getByLabel('Secreto de firma (whsec_...)').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    await shoot(page, 'secreto-escritorio', false);
    await page.keyboard.press('Escape');
    await expect(secretDialog).toBeHidden();
    await expect(page.locator('body')).not.toContainText(secret);
    const subscription = area.getByTestId('suscripcion');
    await expect(subscription).toContainText(receiver.url);
    await expect(subscription).toContainText('Activa');
    await expect(subscription).toContainText('plan.asignado, plan.cambiado');

    // The receiver knows the secret now and fails the first try; the administrator gives the person TX30's PRO.
    await receiver.control({ secrets: [secret], plan: [500], fallback: 204 });
    const me = (
      await api<{ data: { id: number }[] }>(request, admin, 'get', `user/listar?email=${encodeURIComponent(who.email)}`)
    ).data[0]!;
    const apps = await api<{ id: number; planes: { id: number; nombre: string }[] }[]>(
      request,
      admin,
      'get',
      'apps/listar-con-planes',
    );
    const pro = apps.find((app) => app.id === APP_ID)!.planes.find((plan) => plan.nombre.toLowerCase() === 'pro')!;
    await api(request, admin, 'post', 'plan-usuario/cambiar-plan-app', {
      idUsuario: me.id,
      idApp: APP_ID,
      idPlan: pro.id,
      fechaVencimiento: '2099-01-01T00:00:00.000Z',
    });

    const row = await untilDelivery(area, receiver.url, /Reintentando/);
    await expect(row).toContainText('El receptor falló al procesarlo (respondió 500)');
    await expect(row).toContainText('500');
    await expect(row).toContainText(/Próximo intento/);
    await shoot(page, 'entrega-reintentando-escritorio');
    // Tried again after 5 s, accepted.
    await untilDelivery(area, receiver.url, /Entregada/);
    await expect(row).toContainText('204');
    const [failed, accepted] = (await receiver.seen()).filter((one) => one.verified);
    expect([failed?.status, accepted?.status, accepted?.id]).toEqual([500, 204, failed?.id]);
    expect(accepted!.body.type).toMatch(/^plan\.(asignado|cambiado)$/);
    expect(accepted!.body.data.plan).toMatchObject({ id: pro.id });
    // The order number, signed in the body, is the one that ends the webhook-id.
    expect(`_${accepted!.body.seq}`).toBe(accepted!.id.slice(accepted!.id.lastIndexOf('_')));

    // 'Reenviar': queued again, delivered again under the same webhook-id.
    await row.getByRole('button', { name: /^Reenviar plan\.(asignado|cambiado) n\.º \d+$/ }).click();
    await expect(area.getByText('Entrega puesta de nuevo en cola')).toBeVisible();
    await untilDelivery(area, receiver.url, /Entregada/);
    const seen = (await receiver.seen()).filter((one) => one.verified);
    expect(seen.map((one) => [one.id, one.status])).toEqual([
      [accepted!.id, 500],
      [accepted!.id, 204],
      [accepted!.id, 204],
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'entregas-escritorio');

    // On a phone: the table becomes cards, nothing wider than the screen.
    await page.setViewportSize(PHONE);
    await expect(area.getByTestId('entrega').first()).toBeVisible();
    expect((await widthReport(page)).wide).toEqual([]);
    await shoot(page, 'entregas-telefono');
    await area.getByRole('button', { name: `Nueva suscripción de ${CLIENT}` }).click();
    await expect(page.getByRole('dialog', { name: `Nueva suscripción de ${CLIENT}` })).toBeVisible();
    await shoot(page, 'nueva-suscripcion-telefono', false);
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  } finally {
    receiver.stop();
  }
});
