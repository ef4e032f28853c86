import { passkeysElsewhere } from '@portal/shared';

/**
 * Why this page cannot use passkeys, said in Spanish, and where they work: the rule is @portal/contracts'
 * (passkeys/relying-party), the one the API's default relying party follows.
 */
export interface PasskeysUnavailable {
  /** The reason, one sentence. */
  reason: string;
  /** The address to open instead (shown), and the same page there (its link); null when there is none to give. */
  address: { origin: string; href: string } | null;
  /** What to do when there is no address to give. */
  advice: string | null;
}

export const IP_ADDRESS = 'Las llaves de acceso no funcionan en una dirección IP.';
export const INSECURE = 'Las llaves de acceso solo funcionan en una conexión segura (https).';

/** For a page at `page` (a secure context or not): null when it can use passkeys. */
export function passkeysUnavailableAt(page: URL, secureContext: boolean): PasskeysUnavailable | null {
  const elsewhere = passkeysElsewhere(page, secureContext);
  if (!elsewhere) return null;
  if (elsewhere.reason === 'insecure') {
    return { reason: INSECURE, address: null, advice: 'Abre el portal con https para usarlas.' };
  }
  const { origin } = elsewhere;
  return {
    reason: IP_ADDRESS,
    address: origin ? { origin, href: `${origin}${page.pathname}${page.search}` } : null,
    advice: origin ? null : 'Abre el portal con su nombre de dominio para usarlas.',
  };
}

/** The same for the page the browser shows (a document without `isSecureContext` counts as secure). */
export function passkeysUnavailableHere(): PasskeysUnavailable | null {
  if (typeof window === 'undefined') return null;
  return passkeysUnavailableAt(new URL(window.location.href), window.isSecureContext !== false);
}
