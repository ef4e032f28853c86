import { readPendingCompanyLink, storePendingCompanyLink, takeSignInSecret, type TimedMessage } from '@portal/shared';

/** The address param of the link the company's sign-in sends an account with credentials of its own to. */
export const LINK_PARAM = 'vincular';

export const linkAskedText = (empresa: string) =>
  `Ya tienes una cuenta en el portal con este correo. Inicia sesión con tu contraseña (o tu llave de acceso) para vincularla al acceso de ${empresa}${empresa.endsWith('.') ? '' : '.'}`;

/** The API's own words for a link it cannot take (VINCULO_INVALIDO): said at once when this tab cannot prove it. */
export const LINK_INVALID =
  'El enlace con el acceso de tu empresa ha caducado o no es válido. Vuelve a pulsar «Continuar con el acceso de tu empresa».';

/**
 * Arriving at /login?vincular=<code>&empresa=<name>&email=…: the tab keeps the link with the secret of the company
 * sign-in it started (taken from where the Google/Apple return would find it, so a later Google sign-in's secret does
 * not replace it), and the next sign-in, whichever, redeems it (sign-in-landing.ts). A reload finds it kept. Without
 * that secret (the link opened in another tab) or with a bad code or name, nothing is kept and the page says the link
 * cannot be used. Answers the page's notice, or null when the address carries no link.
 */
export function keepCompanyLinkFrom(params: URLSearchParams, now: number = Date.now()): TimedMessage | null {
  const codigo = params.get(LINK_PARAM);
  if (codigo === null) return null;
  const kept = readPendingCompanyLink(now);
  if (kept?.codigo === codigo) return { tone: 'info', text: linkAskedText(kept.empresa) };
  const link = { codigo, empresa: params.get('empresa')?.trim() ?? '', secreto: takeSignInSecret() ?? '' };
  return storePendingCompanyLink(link, now)
    ? { tone: 'info', text: linkAskedText(link.empresa) }
    : { tone: 'error', text: LINK_INVALID };
}
