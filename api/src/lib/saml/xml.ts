// SAML messages and metadata are XML written by strangers. Before any parser sees one it is bounded in size and
// carries no document type declaration (so no entity, external or internal) and no processing instruction but the XML
// declaration; a Redirect binding's deflated message is inflated with a bound on what it may grow to. samlify asks the
// schema validator installed here before it parses a message, and refuses the message when it throws.
import { inflateRawSync } from 'node:zlib';
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
