// SAML messages and metadata are XML written by strangers. Before any parser sees one it is bounded in size and
// carries no document type declaration (so no entity, external or internal) and no processing instruction but the XML
// declaration; a Redirect binding's deflated message is inflated with a bound on what it may grow to. samlify asks the
// schema validator installed here before it parses a message, and refuses the message when it throws.
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import * as samlify from 'samlify';

/** The largest SAML message taken (a POSTed response with its certificates is a few KiB; AD FS's stay under 20). */
export const maxMessageBytes = 256 * 1024;
/** The largest metadata document taken (AD FS federation metadata with WS-Federation roles is about 60 KiB). */
export const maxMetadataBytes = 1024 * 1024;
/** The largest a Redirect binding's message may inflate to. */
export const maxInflatedBytes = 64 * 1024;

export class SamlXmlRefused extends Error {
  override name = 'SamlXmlRefused';
}

/** Throws SamlXmlRefused unless `xml` is within `maxBytes` and declares no document type or entity. */
export function checkSamlXml(xml: string, maxBytes = maxMessageBytes): void {
  if (typeof xml !== 'string' || xml.length === 0) throw new SamlXmlRefused('empty');
  if (Buffer.byteLength(xml, 'utf8') > maxBytes) throw new SamlXmlRefused('too large');
  if (/<!DOCTYPE|<!ENTITY|<!\[CDATA\[[^\]]*<!ENTITY/i.test(xml)) throw new SamlXmlRefused('document type');
  if (/<\?(?!xml[\s?])/i.test(xml)) throw new SamlXmlRefused('processing instruction');
  if (!/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<[A-Za-z_]/.test(xml)) throw new SamlXmlRefused('not XML');
}

/** A Redirect binding's `SAMLRequest`/`SAMLResponse` (base64 of raw deflate) as text, refused past `maxBytes`. */
export function inflateRedirectMessage(encoded: string, maxBytes = maxInflatedBytes): string {
  if (encoded.length > maxBytes * 2) throw new SamlXmlRefused('too large');
  let inflated: Buffer;
  try {
    inflated = inflateRawSync(Buffer.from(encoded, 'base64'), { maxOutputLength: maxBytes });
  } catch {
    throw new SamlXmlRefused('not deflated, or too large once inflated');
  }
  const xml = inflated.toString('utf8');
  checkSamlXml(xml, maxBytes);
  return xml;
}

const refuseParse = (message: string) => {
  throw new SamlXmlRefused(`not well-formed: ${message}`);
};

/** A message checkSamlXml let through, as a namespace-aware DOM (the parser samlify and xml-crypto use). */
export function samlDocument(xml: string): Document {
  checkSamlXml(xml);
  return new DOMParser({ errorHandler: { error: refuseParse, fatalError: refuseParse } }).parseFromString(
    xml,
    'text/xml',
  );
}

/**
 * The elements of `localName` in any namespace under any prefix: samlify and xml-crypto find what they read by local
 * name alone, so that is how a message is counted.
 */
export function elementsNamed(document: Document, localName: string): Element[] {
  const list = document.getElementsByTagNameNS('*', localName);
  const found: Element[] = [];
  for (let index = 0; index < list.length; index++) {
    const element = list.item(index);
    if (element) found.push(element);
  }
  return found;
}

/** The signature algorithms a signature may use (xmldsig-more): RSA with SHA-256 or stronger, PKCS#1 or PSS. */
const signatureMethods = new Set([
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
  'http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1',
]);
/** The digests a signature's references may use: SHA-256 or stronger. */
const digestMethods = new Set([
  'http://www.w3.org/2001/04/xmlenc#sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512',
]);

/**
 * A signature or digest algorithm of the message that is refused, SHA-1 first when there is one (xmldsig's rsa-sha1,
 * dsa-sha1, hmac-sha1 and sha1), or null. xml-crypto verifies with whatever SignatureMethod the document names, so the
 * document's choice is checked here, on every signature in it (docs/decisions/0119-company-saml-hardening.md).
 */
export function refusedSignatureAlgorithm(document: Document): { algorithm: string; sha1: boolean } | null {
  const refused = (localName: string, accepted: Set<string>) =>
    elementsNamed(document, localName)
      .map((element) => element.getAttribute('Algorithm') ?? '')
      .filter((algorithm) => !accepted.has(algorithm));
  const algorithms = [...refused('SignatureMethod', signatureMethods), ...refused('DigestMethod', digestMethods)];
  const sha1 = algorithms.find((algorithm) => /sha1$/i.test(algorithm.trim()));
  const algorithm = sha1 ?? algorithms[0];
  return algorithm === undefined ? null : { algorithm, sha1: sha1 !== undefined };
}

let installed = false;

/** Installs the guard as samlify's schema validator (once per process; samlify refuses every message without one). */
export function installSamlGuard(): void {
  if (installed) return;
  installed = true;
  samlify.setSchemaValidator({
    validate: async (xml: string) => {
      checkSamlXml(xml);
      return 'checked';
    },
  });
}
