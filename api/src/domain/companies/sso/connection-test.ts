// 'Probar conexión' (docs/decisions/0111-setup-link-connection-test.md): a real sign-in at the company's provider, in
// test mode, started from the company's setup page and answered back to it, that creates no session, no account and
// no link. Its start and its result travel sealed (lib/sealed.ts, AES-256-GCM) and bound to the setup link: the start
// opens only within 5 minutes, the result only with that link's own bearer within 10.
import type { KeyObject } from 'node:crypto';
import { emailDomain, normalizeEmail } from '../../../lib/email-address.js';
import { seal, sealingKey, unseal } from '../../../lib/sealed.js';
import type { CompanyProfile } from './accounts.js';

export const connectionTestStartMs = 5 * 60 * 1000;
export const connectionTestResultMs = 10 * 60 * 1000;

export function connectionTestKey(signingKey: KeyObject): Buffer {
  return sealingKey(signingKey, 'portal company connection test');
}

/** What the setup page is told: who came back from the provider, and what would stop their sign-in, in Spanish. */
export interface ConnectionTestResult {
  ok: boolean;
  protocolo: 'oidc' | 'saml';
  email: string | null;
  nombre: string | null;
  apellido: string | null;
  problemas: string[];
}

export const connectionTestMessages = {
  noEmail: 'El proveedor no envió el email de la persona: agrega el email a los datos (claims o atributos) que envía.',
  domainNotAllowed: (domain: string, allowed: string[]) =>
    `El dominio ${domain} no está entre los de la empresa en el portal (${allowed.join(', ') || 'ninguno'}): esa persona no podría entrar.`,
  emailNotVerified: 'El proveedor dice que el email de la persona no está verificado: el portal no lo aceptaría.',
  refused: (reason: string) => `El proveedor no completó el inicio de sesión: ${reason}`,
} as const;
const M = connectionTestMessages;

const startBound = (linkId: number) => `setup-link-test-start:${linkId}`;
const resultBound = (linkId: number) => `setup-link-test-result:${linkId}`;

/** The test's start, for GET /auth/empresa/prueba?inicio=…: the link and the company, sealed, with its deadline. */
export function sealTestStart(key: Buffer, linkId: number, companyId: number, now: number): string {
  const body = JSON.stringify({ companyId, expiresAt: now + connectionTestStartMs });
  return `${linkId}.${seal(key, startBound(linkId), body)}`;
}

/** The start's link and company, or null for anything not sealed here, for another link, or past its 5 minutes. */
export function openTestStart(key: Buffer, value: unknown, now: number): { linkId: number; companyId: number } | null {
  if (typeof value !== 'string' || value.length > 1024) return null;
  const dot = value.indexOf('.');
  const linkId = Number(value.slice(0, dot));
  if (dot < 1 || !Number.isSafeInteger(linkId) || linkId < 1) return null;
  try {
    const body = JSON.parse(unseal(key, startBound(linkId), value.slice(dot + 1))) as {
      companyId?: unknown;
      expiresAt?: unknown;
    };
    if (typeof body.companyId !== 'number' || typeof body.expiresAt !== 'number' || body.expiresAt <= now) return null;
    return { linkId, companyId: body.companyId };
  } catch {
    return null;
  }
}

/** The result as the page's address carries it back: sealed for the link that started the test. */
export function sealTestResult(key: Buffer, linkId: number, result: ConnectionTestResult, now: number): string {
  return seal(key, resultBound(linkId), JSON.stringify({ ...result, expiresAt: now + connectionTestResultMs }));
}

/** The result, only for the link it was sealed for and within its 10 minutes; null for anything else. */
export function openTestResult(key: Buffer, linkId: number, value: string, now: number): ConnectionTestResult | null {
  try {
    const { expiresAt, ...result } = JSON.parse(unseal(key, resultBound(linkId), value)) as ConnectionTestResult & {
      expiresAt?: unknown;
    };
    return typeof expiresAt === 'number' && expiresAt > now ? result : null;
  } catch {
    return null;
  }
}

/**
 * What the provider sent, judged as the company sign-in would judge it, without signing anyone in: an email is there,
 * its domain is one of the connection's, the provider does not say it is unverified.
 */
export function judgeProfile(
  protocol: 'oidc' | 'saml',
  profile: CompanyProfile,
  domains: string[],
): ConnectionTestResult {
  const problems: string[] = [];
  const email = normalizeEmail(profile.email);
  if (!email.includes('@')) problems.push(M.noEmail);
  else {
    const domain = emailDomain(email);
    if (!domains.includes(domain)) problems.push(M.domainNotAllowed(domain, domains));
  }
  if (profile.emailVerified === false || profile.emailVerified === 'false') problems.push(M.emailNotVerified);
  return {
    ok: problems.length === 0,
    protocolo: protocol,
    email: email || null,
    nombre: profile.name || null,
    apellido: profile.lastName || null,
    problemas: problems,
  };
}

/** A test the provider refused or that could not be completed: what went wrong, no one came back. */
export function refusedTest(protocol: 'oidc' | 'saml', reason: string): ConnectionTestResult {
  return { ok: false, protocolo: protocol, email: null, nombre: null, apellido: null, problemas: [M.refused(reason)] };
}
