// The resend countdown tells the truth (docs/decisions/0032-resend-countdown.md): it comes from the server's wait and
// survives a reload.
import { expect, person, registerPending, test } from '../support/auth';

test("a refused 'Reenviar código' counts down the server's wait, and a reload keeps counting", async ({
  page,
  request,
}) => {
  const who = person('reenvio');
  // The page's clock, moved on by the test: the count goes down without waiting for real seconds.
  await page.clock.install();
  // Registered a moment ago (elsewhere): the server mailed a code and refuses another for 60 s.
  await registerPending(request, who);
  await page.goto(`/verify-email?email=${encodeURIComponent(who.email)}`);
  await page.getByRole('button', { name: 'Reenviar código' }).click();
  await expect(page.getByRole('alert')).toContainText(/Espera \d+ segundos/);
  const countdown = page.getByRole('button', { name: /^Reenviar en \d+s$/ });
  await expect(countdown).toBeDisabled();
  const seconds = async () => Number((await countdown.textContent())?.match(/\d+/)?.[0]);
  const first = await seconds();
  expect(first).toBeGreaterThan(40);
  expect(first).toBeLessThanOrEqual(60);
  // It counts down.
  await page.clock.fastForward(2_000);
  await expect.poll(seconds).toBeLessThan(first);

  await page.reload();
  await expect(countdown).toBeDisabled();
  const afterReload = await seconds();
  expect(afterReload).toBeLessThan(first);
  expect(afterReload).toBeGreaterThan(30);
  await page.clock.fastForward(2_000);
  await expect.poll(seconds).toBeLessThan(afterReload);
});
