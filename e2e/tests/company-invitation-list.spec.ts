// 'Invitar a varias personas' in a real browser, at 1280 and 390 px: the platform administrator pastes a plant's list
// (one line wrong), reads each person before sending, sends it (the progress, then a result per row, the focus on the
// result), and the mails reach the people's inboxes; the dialog fits a phone's width with its rows as cards, the
// keyboard stays in it and Escape closes it. Screenshots of both widths are in the test's output.
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, seriousViolations, test } from '../support/auth';
import { API_URL, MAIL_DIR } from '../support/env';
import { mailsFor } from '../support/mail-sink';
import { adminToken } from '../support/oidc';
import { DESKTOP, PHONE, widthReport } from '../support/screens';
import { signInAsAdmin } from '../support/session';

/** Beto Pro, the catalogue's app 2: the app of the seats the list hands out. */
const APP_ID = 2;
const APP = 'Beto Pro';

/** Nothing of the page sticks out sideways at this width; the screenshot (the dialog as it shows) to look at. */
async function fitsTheScreen(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(name) });
  const report = await widthReport(page);
  expect(report.wide, name).toEqual([]);
  expect(report.scrollWidth, name).toBeLessThanOrEqual(report.viewport);
}

test("a plant's list of people is read, sent in parts and answered row by row, at 1280 and at 390 px", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const tag = randomUUID().slice(0, 8);
  const company = `Planta Lista ${tag} S.A.`;
  const domain = `lista-${tag}.test`;

  // The vendor's company and its licence of 40 seats of Beto Pro, through the API.
  const admin = await adminToken();
  const headers = { authorization: `Bearer ${admin}` };
  const created = await request.post(`${API_URL}/admin/empresas`, { headers, data: { nombre: company } });
  expect(created.status(), await created.text()).toBe(201);
  const { id: companyId } = (await created.json()) as { id: number };
  const catalogue = (await (await request.get(`${API_URL}/apps/listar-con-planes`)).json()) as {
    id: number;
    planes: { id: number; nombre: string }[];
  }[];
  const plan = catalogue.find((app) => app.id === APP_ID)?.planes.find((each) => each.nombre === 'PRO');
  const sold = await request.post(`${API_URL}/admin/empresas/${companyId}/licencias`, {
    headers,
    data: {
      idApp: APP_ID,
      idPlan: plan?.id,
      puestos: 40,
      fechaVencimiento: new Date(Date.now() + 365 * 86_400_000).toISOString(),
    },
  });
  expect(sold.status(), await sold.text()).toBe(201);

  // 1. At 1280 px: the list pasted, each person read before anything is sent.
  await page.setViewportSize(DESKTOP);
  await signInAsAdmin(page, request);
  await page.goto(`/admin/empresas/${companyId}`);
  await expect(page.getByRole('heading', { level: 1, name: company })).toBeVisible();
  await page
    .getByRole('tablist', { name: 'Secciones de la empresa' })
    .getByRole('tab', { name: 'Invitaciones' })
    .click();
  await page.getByRole('button', { name: 'Invitar a varias personas' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invitar a varias personas' });
  const lines = [
    'email;rol;app',
    ...Array.from(
      { length: 30 },
      (_, i) => `operario${i + 1}@${domain};${i === 0 ? 'Administrador' : 'Miembro'};${APP}`,
    ),
    `supervisora@${domain};Jefa de turno;${APP}`,
  ];
  await dialog.getByLabel('Lista de personas').fill(lines.join('\n'));
  const table = dialog.getByRole('table', { name: 'Personas de la lista' });
  await expect(table.getByRole('row')).toHaveCount(32);
  await expect(table.getByRole('row').filter({ hasText: `supervisora@${domain}` })).toContainText(
    'El rol «Jefa de turno» no existe: usa Propietario, Administrador o Miembro.',
  );
  await expect(dialog.getByText('30 personas listas para invitar · 1 con errores')).toBeVisible();
  await fitsTheScreen(page, 'lista-1280.png');
  expect(await seriousViolations(page)).toEqual([]);

  // 2. Sent in two parts: the progress, then the result with the focus on it and each row's outcome.
  await dialog.getByRole('button', { name: 'Enviar 30 invitaciones' }).click();
  await expect(dialog.getByRole('heading', { name: 'Resultado' })).toBeFocused({ timeout: 30_000 });
  await expect(dialog.getByText('30 invitadas · 1 con errores')).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: `operario1@${domain}` })).toContainText('Invitada');
  // The keyboard stays in the dialog.
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }

  // 3. At 390 px: the rows as cards, nothing wider than the phone, no serious axe violation.
  await page.setViewportSize(PHONE);
  await expect(dialog.getByText('30 invitadas · 1 con errores')).toBeVisible();
  await fitsTheScreen(page, 'lista-390.png');
  expect(await seriousViolations(page)).toEqual([]);

  // 4. Escape closes it; the page says how many went and lists them; the people have their mail.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Se enviaron 30 invitaciones')).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Tabla de invitaciones' }).getByRole('row').filter({ hasText: domain }),
  ).toHaveCount(30);
  await expect
    .poll(
      () => mailsFor(MAIL_DIR, `operario30@${domain}`).filter((m) => m.subject === `Invitación a ${company}`).length,
      {
        timeout: 25_000,
      },
    )
    .toBe(1);
});
