// Step-up in Chromium (docs/decisions/0137-step-up.md): the server app (@badgateway/oauth2-client) asks for
// `acr_values=urn:portal:acr:2` with `acr` essential. A person signed in on the portal with the password only is
// asked the 'Código de verificación' on /autorizar (computed here from the secret, as an authenticator app would) and
// the app then reads level 2 and `mfa`; a person with no second factor who cancels sends the app
// `unmet_authentication_requirements`, never a token of level 1.
import type { APIRequestContext, Page } from '@playwright/test';
import { person, type Person, registerActive, signInThroughForm } from '../support/auth';
import { expect, test } from '../support/oidc';
import { codeAt, totpElsewhere } from '../support/totp';

async function signedInOnPortal(page: Page, request: APIRequestContext, label: string): Promise<Person> {
  const who = person(label);
  await registerActive(request, who);
  await page.goto('/login');
  await signInThroughForm(page, who.email, who.password);
  await expect(page).toHaveURL(/\/apps$/);
  return who;
}

test('a password-only session is asked the code, and the app reads level 2 with mfa', async ({
  page,
  request,
  relyingParties: { serverApp },
}) => {
  test.setTimeout(90_000);
  const who = await signedInOnPortal(page, request, 'paso-totp');
  const secret = await totpElsewhere(request, who);

  await page.goto(serverApp.url);
  await page.getByRole('link', { name: 'Entrar con segundo factor' }).click();
  await expect(page.getByRole('heading', { name: 'Confirma tu identidad' })).toBeVisible();
  await expect(
    page.getByText('Beto Pro (servidor) pide que confirmes tu identidad con tu segundo factor.'),
  ).toBeVisible();
  await page.getByLabel('Código de verificación').fill('000000');
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByText('Código incorrecto')).toBeVisible();

  // The next step's code (this step's went to the setup).
  await page.getByLabel('Código de verificación').fill(await codeAt(secret, 1));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByText(`Sesión en la app: ${who.email}`)).toBeVisible();
  await expect(page.getByText('Nivel: urn:portal:acr:2 (pwd mfa)')).toBeVisible();
});

test('a person with no second factor who cancels: the app gets unmet_authentication_requirements', async ({
  page,
  request,
  relyingParties: { serverApp },
}) => {
  await signedInOnPortal(page, request, 'paso-sin');
  await page.goto(serverApp.url);
  await page.getByRole('link', { name: 'Entrar con segundo factor' }).click();
  await expect(page.getByText(/pide un segundo factor y aún no tienes uno/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Mi perfil, pestaña Seguridad' })).toHaveAttribute(
    'href',
    '/perfil?tab=seguridad',
  );
  await page.getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByText('El portal respondió: error=unmet_authentication_requirements')).toBeVisible();
  await expect(page.getByText('Sin sesión en la app')).toBeVisible();
});
