import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IdentityProvider } from '../../db/schema.js';

/** What the browser carries between the start of a Google/Apple (or a company's own) sign-in and the provider's answer. */
export interface SignInTransaction {
  /** 'empresa': a company's own provider (routes/auth/company.ts), named by `companyId`. */
  provider: IdentityProvider | 'empresa';
  companyId?: number;
  /** A company's 'Probar conexión' from this setup link: judged and told back to its page, never signed in. */
  setupLinkId?: number;
  state: string;
  nonce: string;
  codeVerifier: string;
  /** An allowed partner target to continue to after signing in. */
  redirectUrl: string | null;
  /**
   * SHA-256 (base64url) of the secret the portal's tab keeps for this sign-in: the return's one-time code is redeemed
   * only with that secret (domain/social-sign-in/returns.ts).
   */
  binding: string;
  /** Milliseconds since the epoch after which the answer is refused. */
  expiresAt: number;
}

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

/** The transaction as a cookie value: its JSON and an HMAC, so the browser can hold it but not change it. */
export function sealTransaction(key: Buffer, transaction: SignInTransaction): string {
  const payload = Buffer.from(JSON.stringify(transaction)).toString('base64url');
  return `${payload}.${mac(key, payload)}`;
}

/** The transaction if the value is one this server sealed and it has not expired; null for anything else. */
export function openTransaction(key: Buffer, value: string | undefined, now: number): SignInTransaction | null {
  if (!value || value.length > 4096) return null;
  const [payload, signature, ...rest] = value.split('.');
  if (!payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(mac(key, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let transaction: SignInTransaction;
  try {
    transaction = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SignInTransaction;
  } catch {
    return null;
  }
  return typeof transaction.expiresAt === 'number' && transaction.expiresAt > now ? transaction : null;
}
