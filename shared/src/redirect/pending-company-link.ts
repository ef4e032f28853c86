import { useEffect, useState } from 'react';
import { linkCompanyAccess } from '../api/auth';
import { ApiError } from '../api/client';

/**
 * The link of an account to its company's own sign-in that this tab is on the way to prove
 * (docs/decisions/0080-company-sign-in.md): the company's sign-in found an account with credentials of its own at the address, so the API sent the tab to
 * `/login?vincular=<code>&empresa=<name>&email=…` without a session. The tab keeps the code, the company's name and
 * the secret of the company sign-in it started (the code is bound to that secret's SHA-256) while the person signs in
 * however they can; the one landing decision (sign-in-landing.ts) then redeems it once and forgets it.
 */

/** Where this tab keeps the link (sessionStorage: this tab only, gone with it). */
export const PENDING_COMPANY_LINK_KEY = 'portal-company-link';

/** The API keeps the code for 10 minutes: an older one is not worth sending. */
export const PENDING_COMPANY_LINK_TTL_MS = 10 * 60 * 1000;

/** Where the outcome waits for the page the person lands on. */
export const COMPANY_LINK_NOTICE_KEY = 'portal-company-link-notice';

export interface CompanyLink {
  /** The one-time code of the address (`vincular`). */
  codigo: string;
  /** The company's name, as the address gave it (shown only). */
  empresa: string;
  /** The secret of the company sign-in this tab started. */
  secreto: string;
}

/** What the landing page says about the link: done, or the API's reason it was not. */
export interface CompanyLinkNotice {
  tone: 'success' | 'error';
  text: string;
}

// A random code or secret in base64url (or hex): nothing else is kept or sent.
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;
// A company's name as people read it: no control characters, a sensible length.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is refused.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Whether a name can be a company's as the address gives it. */
export function isCompanyName(name: string | null | undefined): name is string {
  const value = name?.trim() ?? '';
  return value.length > 0 && value.length <= 200 && !CONTROL.test(value);
}

/** Whether a code, a name and a secret can be a link to keep: anything else is never stored nor sent. */
export function isCompanyLink(link: { codigo?: unknown; empresa?: unknown; secreto?: unknown }): link is CompanyLink {
  return (
    typeof link.codigo === 'string' &&
    TOKEN.test(link.codigo) &&
    typeof link.empresa === 'string' &&
    isCompanyName(link.empresa) &&
    typeof link.secreto === 'string' &&
    TOKEN.test(link.secreto)
  );
}

/** Keeps the link for this tab's next sign-in (a bad one is dropped); answers whether it was kept. */
export function storePendingCompanyLink(link: CompanyLink, now: number = Date.now()): boolean {
  if (!isCompanyLink(link)) return false;
  try {
    const { codigo, empresa, secreto } = link;
    sessionStorage.setItem(
      PENDING_COMPANY_LINK_KEY,
      JSON.stringify({ codigo, empresa: empresa.trim(), secreto, at: now }),
    );
    return true;
  } catch {
    return false;
  }
}

/** Forgets the link. */
export function clearPendingCompanyLink(): void {
  try {
    sessionStorage.removeItem(PENDING_COMPANY_LINK_KEY);
  } catch {
    // Nothing kept, nothing to forget.
  }
}

/** The link this tab keeps, left in place (a reload of /login?vincular=… finds it); null if none or too old. */
export function readPendingCompanyLink(now: number = Date.now()): CompanyLink | null {
  let raw: string | null = null;
  try {
    raw = sessionStorage.getItem(PENDING_COMPANY_LINK_KEY);
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const kept = JSON.parse(raw) as Partial<CompanyLink> & { at?: unknown };
    const fresh = typeof kept.at === 'number' && now - kept.at >= 0 && now - kept.at < PENDING_COMPANY_LINK_TTL_MS;
    return fresh && isCompanyLink(kept) ? { codigo: kept.codigo, empresa: kept.empresa, secreto: kept.secreto } : null;
  } catch {
    return null;
  }
}

/** The link this tab kept, removed as it is read (it is redeemed once); null if none or too old. */
export function takePendingCompanyLink(now: number = Date.now()): CompanyLink | null {
  const link = readPendingCompanyLink(now);
  clearPendingCompanyLink();
  return link;
}

/** The sentence of a link made. */
export const companyLinkedText = (empresa: string) =>
  `Tu cuenta ya está vinculada al acceso de ${empresa}${empresa.endsWith('.') ? '' : '.'}`;

/** A notice older than this is not about the sign-in just made (the person left for a partner and came back). */
export const COMPANY_LINK_NOTICE_TTL_MS = 5 * 60 * 1000;

function storeCompanyLinkNotice(notice: CompanyLinkNotice, now: number): void {
  try {
    sessionStorage.setItem(COMPANY_LINK_NOTICE_KEY, JSON.stringify({ ...notice, at: now }));
  } catch {
    // No storage: the outcome goes unsaid; the link itself is made or not either way.
  }
}

/** What the landing page says about the link this tab redeemed, left in place; null if nothing or too old. */
export function readCompanyLinkNotice(now: number = Date.now()): CompanyLinkNotice | null {
  let raw: string | null = null;
  try {
    raw = sessionStorage.getItem(COMPANY_LINK_NOTICE_KEY);
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const notice = JSON.parse(raw) as Partial<CompanyLinkNotice> & { at?: unknown };
    const tone = notice.tone === 'success' || notice.tone === 'error' ? notice.tone : null;
    const fresh = typeof notice.at === 'number' && now - notice.at >= 0 && now - notice.at < COMPANY_LINK_NOTICE_TTL_MS;
    return fresh && tone && typeof notice.text === 'string' && notice.text ? { tone, text: notice.text } : null;
  } catch {
    return null;
  }
}

/** Forgets the notice: a page has shown it. */
export function clearCompanyLinkNotice(): void {
  try {
    sessionStorage.removeItem(COMPANY_LINK_NOTICE_KEY);
  } catch {
    // Nothing kept.
  }
}

/**
 * For the page a sign-in lands on: the link's outcome, shown by the first page that asks (read on its first render,
 * forgotten once it is on screen, so StrictMode's second render still has it and no later page says it again).
 */
export function useCompanyLinkNotice(): CompanyLinkNotice | null {
  const [notice] = useState(() => readCompanyLinkNotice());
  useEffect(() => {
    if (notice) clearCompanyLinkNotice();
  }, [notice]);
  return notice;
}

/**
 * After a sign-in (any way in), with the session started: the link this tab kept is sent once, then forgotten
 * whatever the answer. Never throws: a refused or unanswered link leaves the sign-in as it is, and the page the person
 * lands on says why (`useCompanyLinkNotice`). Answers that notice, or null when no link was kept.
 */
export async function redeemPendingCompanyLink(now: number = Date.now()): Promise<CompanyLinkNotice | null> {
  const link = takePendingCompanyLink(now);
  if (!link) return null;
  let notice: CompanyLinkNotice;
  try {
    const { empresa } = await linkCompanyAccess(link.codigo, link.secreto);
    const name = isCompanyName(empresa?.nombre) ? empresa.nombre : link.empresa;
    notice = { tone: 'success', text: companyLinkedText(name) };
  } catch (error) {
    notice = {
      tone: 'error',
      text:
        error instanceof ApiError
          ? error.message
          : 'No se pudo vincular tu cuenta al acceso de tu empresa. Vuelve a pulsar «Continuar con el acceso de tu empresa».',
    };
  }
  storeCompanyLinkNotice(notice, Date.now());
  return notice;
}
