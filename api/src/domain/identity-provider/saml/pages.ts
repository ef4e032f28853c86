// The two small pages the API shows a browser in a SAML sign-in: why a request was refused (nothing sent to anyone),
// and the form that carries the signed answer to the app's ACS, sent by a script allowed by this page's nonce alone
// ('Continuar' without scripts). The portal's own pages cannot post there: their policy allows forms to themselves.
import { randomBytes } from 'node:crypto';
import { escapeXml as html } from './metadata.js';
import { samlIdpMessages as M } from './messages.js';
import type { SamlRefusalReason } from './sign-in.js';

export interface Page {
  html: string;
  contentSecurityPolicy: string;
}

const style =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1f2937}' +
  'h1{font-size:1.25rem}button{font:inherit;padding:.5rem 1.25rem;border-radius:.375rem;border:0;background:#1d4ed8;color:#fff}';

const document = (nonce: string, title: string, body: string) =>
  '<!doctype html><html lang="es"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1">' +
  `<title>${html(title)}</title><style nonce="${nonce}">${style}</style></head><body>${body}</body></html>`;

const newNonce = () => randomBytes(16).toString('base64');

const reasons: Readonly<Record<SamlRefusalReason | 'deliveryGone', string>> = {
  unknownSp: M.unknownSp,
  foreignAcs: M.foreignAcs,
  badSignature: M.badSignature,
  malformed: M.malformed,
  deliveryGone: M.deliveryGone,
};

/** A page that says why nothing happened, with the way back to the portal's apps. */
function messagePage(text: string, portalUrl: string): Page {
  const nonce = newNonce();
  return {
    html: document(
      nonce,
      M.pageTitle,
      `<h1>${html(M.pageTitle)}</h1><p>${html(text)}</p>` +
        `<p><a href="${html(`${portalUrl}/apps`)}">Ir a Aplicaciones</a></p>`,
    ),
    contentSecurityPolicy: `default-src 'none'; style-src 'nonce-${nonce}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
  };
}

/**
 * A LogoutResponse that answers no open logout: nothing changed. The way on is the chain's own hop when the browser
 * is in an open chain (the next app, or /login), else the portal's /login.
 */
export function logoutRefusalPage(portalUrl: string, continueTo: string | null): Page {
  const nonce = newNonce();
  const next = continueTo
    ? `<p><a href="${html(continueTo)}">${html(M.logoutContinue)}</a></p>`
    : `<p><a href="${html(`${portalUrl}/login`)}">${html(M.logoutToLogin)}</a></p>`;
  return {
    html: document(
      nonce,
      M.logoutPageTitle,
      `<h1>${html(M.logoutPageTitle)}</h1><p>${html(M.logoutRefused)}</p>${next}`,
    ),
    contentSecurityPolicy: `default-src 'none'; style-src 'nonce-${nonce}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
  };
}

export function refusalPage(reason: SamlRefusalReason | 'deliveryGone', portalUrl: string): Page {
  return messagePage(reasons[reason], portalUrl);
}

/** The page for a browser over the per-address limit: the same Spanish message as the API's 429. */
export function tooManyRequestsPage(message: string, portalUrl: string): Page {
  return messagePage(message, portalUrl);
}

/** The page that posts `SAMLResponse` (and `RelayState`) to the app's ACS: forms may go there and nowhere else. */
export function postPage(delivery: { acsUrl: string; samlResponse: string; relayState: string | null }): Page {
  const nonce = newNonce();
  const relay =
    delivery.relayState === null ? '' : `<input type="hidden" name="RelayState" value="${html(delivery.relayState)}">`;
  const body = document(
    nonce,
    M.continueTitle,
    `<form id="saml" method="post" action="${html(delivery.acsUrl)}">` +
      `<input type="hidden" name="SAMLResponse" value="${html(delivery.samlResponse)}">${relay}` +
      `<noscript><p>${html(M.continueHint)}</p><button type="submit">${html(M.continueButton)}</button></noscript>` +
      `</form><script nonce="${nonce}">document.getElementById('saml').submit();</script>`,
  );
  const origin = new URL(delivery.acsUrl).origin;
  return {
    html: body,
    contentSecurityPolicy: `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; form-action ${origin}; frame-ancestors 'none'; base-uri 'none'`,
  };
}
