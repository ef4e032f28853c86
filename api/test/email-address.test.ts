// One reading of an address wherever one enters (lib/email-address.ts): every spelling of one mailbox's domain is one
// address, and its domain is the one the company's proved domains are compared with.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emailDomain, normalizeEmail } from '../src/lib/email-address.js';

describe('email-address.test.ts', () => {
  it('reads every spelling of a domain as one address: final dot, case, spaces, full-width, ideographic dot, IDN', () => {
    for (const written of [
      'membera@acme.com',
      'MemberA@Acme.COM.',
      ' membera@acme.com . ',
      'membera@acme.com..',
      'membera@ａｃｍｅ.com',
      'membera@acme。com。',
    ])
      assert.equal(normalizeEmail(written), 'membera@acme.com', written);
    assert.equal(normalizeEmail('ana@xn--minera-7va.cl'), 'ana@minería.cl');
    assert.equal(normalizeEmail('Ana@MINERÍA.cl.'), 'ana@minería.cl');
  });

  it("an address's domain is the company's stored form (ASCII), the same for every spelling", () => {
    assert.equal(emailDomain(normalizeEmail('membera@acme.com.')), 'acme.com');
    assert.equal(emailDomain(normalizeEmail('ana@minería.cl')), 'xn--minera-7va.cl');
    assert.equal(emailDomain('sin-arroba'), '');
  });

  it('leaves what is no address as written, for the caller to refuse', () => {
    assert.equal(normalizeEmail('ana@exa mple.com'), 'ana@exa mple.com');
    assert.equal(normalizeEmail('ana@'), 'ana@');
    assert.equal(emailDomain('ana@exa mple.com'), '');
  });
});
