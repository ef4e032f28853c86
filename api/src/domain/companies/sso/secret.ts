// The client secret of a company's provider, kept sealed (lib/sealed.ts), bound to the company: a sealed value copied
// to another company's row does not open. Only the sign-in and the save's discovery open it; no answer, log line or
// audit row carries it.
import type { KeyObject } from 'node:crypto';
import { seal, sealingKey, unseal } from '../../../lib/sealed.js';

export function connectionSecretKey(signingKey: KeyObject): Buffer {
  return sealingKey(signingKey, 'portal company provider secret');
}

const boundTo = (companyId: number) => `company:${companyId}`;

export function sealSecret(key: Buffer, companyId: number, secret: string): string {
  return seal(key, boundTo(companyId), secret);
}

export function openSecret(key: Buffer, companyId: number, sealed: string): string {
  return unseal(key, boundTo(companyId), sealed);
}
