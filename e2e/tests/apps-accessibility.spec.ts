import type { Page } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import { expect, person, registerActive, seriousViolations, test } from '../support/auth';
import { signInAs, signInAsAdmin } from '../support/session';

const pages: Array<{ path: string; ready: (page: Page) => Promise<void> }> = [
  { path: '/apps', ready: (page) => expect(page.getByRole('article', { name: 'Beto Pro' })).toBeVisible() },
  {
    path: '/apps/2',
    ready: (page) => expect(page.getByRole('region', { name: 'Beto Pro PRO' })).toBeVisible(),
  },
  { path: '/planes', ready: (page) => expect(page.getByTestId('plan-card')).toHaveCount(3) },
  { path: '/pagos', ready: (page) => expect(page.getByRole('heading', { name: 'Pagos' })).toBeVisible() },
  { path: '/success', ready: (page) => expect(page.getByRole('heading', { name: '¡Éxito!' })).toBeVisible() },
  { path: '/beto', ready: (page) => expect(page.getByRole('heading', { name: 'Casos de uso' })).toBeVisible() },
  { path: '/control-max', ready: (page) => expect(page.getByRole('heading', { name: 'Casos de uso' })).toBeVisible() },
];

// Rated "moderate" by axe, checked on these pages all the same: headings in order, one name per landmark.
const ENFORCED = ['heading-order', 'landmark-unique'];

// Kept outside test-results (which each run empties) so they can be looked at after the run.
const shots = (name: string) => path.join(os.tmpdir(), 'portal-apps-screens', `${name}.png`);

for (const viewport of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test(`the apps remote's pages have no serious accessibility problem (${viewport.name})`, async ({
    browser,
    request,
  }) => {
    // Every page of the remote with axe in one signed-in session takes a good part of the default 30 s even on a quiet
    // machine, and past a minute while both of CI's streams share its two cores: a bound, not a target.
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await signInAsAdmin(page, request);
    for (const entry of pages) {
      await page.goto(entry.path);
      await entry.ready(page);
      expect(await seriousViolations(page, ENFORCED), entry.path).toEqual([]);
      await page.screenshot({
        path: shots(`${entry.path.slice(1).replaceAll('/', '-')}-${viewport.width}`),
        fullPage: true,
      });
    }
    await context.close();
  });

  test(`the presentation has no serious accessibility problem at any step (${viewport.name})`, async ({
    browser,
    request,
  }) => {
    // A new account, a sign-in and three axe scans with screenshots go past the default 30 s on a busy machine.
    test.slow();
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    // A new account sees the presentation.
    const newcomer = person(`a11y-${viewport.name}`);
    await registerActive(request, newcomer);
    await signInAs(page, request, newcomer.email, newcomer.password);
    await page.goto('/apps');
    const dialog = page.getByRole('dialog');
    for (const step of [1, 2, 3]) {
      await expect(dialog.getByText(`${step} de 3`)).toBeVisible();
      // Contrast is measured once the slide-in has ended (its animation's own end, not a guess of its length).
      await dialog.evaluate((element) =>
        Promise.all(
          element
            .getAnimations({ subtree: true })
            .filter((animation) => animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
            .map((animation) => animation.finished),
        ),
      );
      expect(await seriousViolations(page, ENFORCED), `step ${step}`).toEqual([]);
      await page.screenshot({ path: shots(`presentation-${step}-${viewport.width}`) });
      if (step < 3) await dialog.getByRole('button', { name: 'Continuar' }).click();
    }
    await context.close();
  });
}
