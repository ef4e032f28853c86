// Every remote also runs on its own origin, without the shell, for the team that owns it (mountStandalone): its own
// page loads its own federation runtime (standalone-runtime.js) and must work as it does inside the portal.
import { expect, test, type Page } from '@playwright/test';
import { E2E } from '../support/env';
import { signInAsAdmin } from '../support/session';

// Where npm start prints each remote.
const origin = (port: number) => `http://localhost:${port}`;

const remotes = [
  {
    name: 'calculator',
    signedIn: true,
    port: E2E.calculatorPort,
    shows: (page: Page) => page.getByRole('heading', { name: 'Calculadora TXI' }),
  },
  {
    name: 'auth',
    signedIn: false,
    port: E2E.authPort,
    shows: (page: Page) => page.getByRole('heading', { name: 'Iniciar Sesión', exact: true }),
  },
  {
    name: 'apps',
    signedIn: true,
    port: E2E.appsPort,
    shows: (page: Page) => page.getByRole('tab', { name: 'Aplicaciones web' }),
  },
  {
    name: 'admin',
    signedIn: true,
    port: E2E.adminPort,
    shows: (page: Page) => page.getByRole('navigation', { name: 'Panel de administración' }),
  },
];

for (const remote of remotes) {
  test(`the ${remote.name} remote works on its own origin`, async ({ page, request }) => {
    if (remote.signedIn) await signInAsAdmin(page, request);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(`${origin(remote.port)}/`);
    await expect(remote.shows(page)).toBeVisible();
    expect(problems).toEqual([]);
  });
}
