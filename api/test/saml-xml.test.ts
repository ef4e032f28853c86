// The guard before any SAML parser: size, no document type or entity, no stray processing instruction, and a bounded
// inflate for the Redirect binding (a deflate bomb stops at the bound instead of filling memory).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { checkSamlXml, inflateRedirectMessage, maxInflatedBytes, SamlXmlRefused } from '../src/lib/saml/xml.js';

const request =
  '<?xml version="1.0"?><samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_1" Version="2.0"/>';

describe('the SAML XML guard', () => {
  it('takes a plain message, with or without the XML declaration or a leading comment', () => {
    checkSamlXml(request);
    checkSamlXml('<!-- ok --><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>');
  });

  it('refuses a document type, an internal or external entity, and a stray processing instruction', () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>`;
    const bomb = '<!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><r>&b;</r>';
    for (const xml of [xxe, bomb, '<?xml-stylesheet href="x"?><r/>', 'no xml', '', '  <!doctype r><r/>'])
      assert.throws(() => checkSamlXml(xml), SamlXmlRefused, xml);
  });

  it('refuses a message past its size before reading it', () => {
    assert.throws(() => checkSamlXml(`<r>${'a'.repeat(300 * 1024)}</r>`), SamlXmlRefused);
    checkSamlXml(`<r>${'a'.repeat(300 * 1024)}</r>`, 1024 * 1024);
  });

  it('inflates a Redirect message, and stops a deflate bomb at the bound', () => {
    assert.equal(inflateRedirectMessage(deflateRawSync(request).toString('base64')), request);
    const bomb = deflateRawSync(`<r>${' '.repeat(maxInflatedBytes * 20)}</r>`).toString('base64');
    assert.ok(bomb.length < maxInflatedBytes, 'small on the wire');
    assert.throws(() => inflateRedirectMessage(bomb), SamlXmlRefused);
    assert.throws(() => inflateRedirectMessage('not-deflate!!'), SamlXmlRefused);
  });
});
