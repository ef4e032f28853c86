// People at the test identity providers (Google- and Apple-like, started by playwright.config.ts).
import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { APPLE_ISSUER, GOOGLE_ISSUER } from './env';

export interface ProviderAccount {
  sub: string;
  email: string;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
}

/** A person known to both providers, with a fresh subject and email unless given. */
export async function providerAccount(
  request: APIRequestContext,
  overrides: Partial<ProviderAccount> = {},
): Promise<ProviderAccount> {
  const id = randomUUID().slice(0, 8);
  const account = {
    sub: `e2e-${id}`,
    email: `social-${id}@e2e.portal.test`,
    emailVerified: true,
    givenName: 'Rosa',
    familyName: 'Mamani',
    ...overrides,
  };
  for (const issuer of [GOOGLE_ISSUER, APPLE_ISSUER]) {
    const response = await request.post(`${issuer}/__cuentas`, { data: account });
    expect(response.status()).toBe(204);
  }
  return account;
}

/** On the provider's page: signs in as the account (or cancels), as the person would. */
export async function atProvider(page: Page, account: ProviderAccount | 'cancelar'): Promise<void> {
  await expect(page).toHaveURL(/\/interaction\//);
  if (account === 'cancelar') {
    await page.getByRole('button', { name: 'Cancelar' }).click();
    return;
  }
  await page.getByLabel('Cuenta').fill(account.sub);
  await page.getByRole('button', { name: 'Continuar' }).click();
}
