// The SAML identity provider's key, as an operator sets it: generated once into DATA_DIR/keys and kept across starts
// (instances sharing the folder end with one), or SAML_IDP_PRIVATE_KEY with SAML_IDP_CERTIFICATE, refused in Spanish
// when it is not an RSA key of 2048 or 3072 bits, when only one of the two is set, or when the certificate is another
// key's; during a rotation the previous certificate is published beside the current one, which alone signs.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as samlify from 'samlify';
import { certificateBody, generateSamlIdpPem, loadSamlIdpKey } from '../src/domain/tokens/saml-key.js';
import { buildTestApp, forEachBackend, type TestApp } from './helpers/app.js';

const split = (pem: string) => ({
  key: /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/.exec(pem)?.[0] ?? '',
  certificate: /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem)?.[0] ?? '',
});

describe('the SAML key from DATA_DIR or the configuration', () => {
  let dir: string;
  let current: { key: string; certificate: string };
  let other: { key: string; certificate: string };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portal-saml-key-'));
    [current, other] = (await Promise.all([generateSamlIdpPem(), generateSamlIdpPem()])).map(split) as [
      typeof current,
      typeof other,
    ];
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const load = (options: { privateKeyPem?: string; certificatePem?: string; previousCertificatePem?: string }) =>
    loadSamlIdpKey({
      privateKeyPem: options.privateKeyPem,
      certificatePem: options.certificatePem,
      previousCertificatePem: options.previousCertificatePem,
      keysDir: join(dir, 'keys'),
    });

  it('generates an RSA key and its certificate once, owner-only, and finds the same one at every start', async () => {
    const [first, second] = await Promise.all([load({}), load({})]);
    assert.equal(first.certificatePem, second.certificatePem, 'two instances starting together end with one key');
    const file = join(dir, 'keys', 'saml-idp.pem');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const again = await load({});
    assert.equal(again.privateKeyPem, first.privateKeyPem);
    assert.match(readFileSync(file, 'utf8'), /BEGIN PRIVATE KEY[\s\S]+BEGIN CERTIFICATE/);
  });

  it('takes a configured key with its certificate, and refuses a wrong one in Spanish', async () => {
    const taken = await load({ privateKeyPem: current.key, certificatePem: current.certificate });
    assert.equal(certificateBody(taken.certificatePem), certificateBody(current.certificate));
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    const cases: [string, Parameters<typeof load>[0], RegExp][] = [
      ['a key alone', { privateKeyPem: current.key }, /SAML_IDP_CERTIFICATE.*falta/],
      ['a certificate alone', { certificatePem: current.certificate }, /SAML_IDP_PRIVATE_KEY.*falta/],
      ['an EC key', { privateKeyPem: String(ec), certificatePem: current.certificate }, /RSA de 2048 o 3072 bits/],
      ['RSA 1024', { privateKeyPem: String(small), certificatePem: current.certificate }, /RSA de 2048 o 3072 bits/],
      ['another key', { privateKeyPem: current.key, certificatePem: other.certificate }, /no es el certificado/],
      ['not PEM', { privateKeyPem: 'hola', certificatePem: current.certificate }, /no es una clave privada PEM/],
      [
        'an unreadable previous certificate',
        { privateKeyPem: current.key, certificatePem: current.certificate, previousCertificatePem: 'hola' },
        /SAML_IDP_PREVIOUS_CERTIFICATE.*no es un certificado/,
      ],
    ];
    for (const [what, options, message] of cases) await assert.rejects(load(options), message, what);
  });
});

forEachBackend((backend) => {
  describe('a rotation of the SAML key', () => {
    let test: TestApp;
    let current: { key: string; certificate: string };
    let previous: { key: string; certificate: string };
    before(async () => {
      [current, previous] = (await Promise.all([generateSamlIdpPem(), generateSamlIdpPem()])).map(split) as [
        typeof current,
        typeof previous,
      ];
      test = await buildTestApp(backend, {
        samlIdp: {
          privateKey: current.key,
          certificate: current.certificate,
          previousCertificate: previous.certificate,
        },
      });
    });
    after(() => test.close());

    it('publishes both certificates for signing, the current one first', async () => {
      const metadata = await test.app.inject({ method: 'GET', url: '/saml/idp/metadata' });
      const idp = samlify.IdentityProvider({ metadata: metadata.body });
      assert.deepEqual(idp.entityMeta.getX509Certificate('signing'), [
        certificateBody(current.certificate),
        certificateBody(previous.certificate),
      ]);
      assert.equal(test.app.samlIdp.key.previousCertificatePem?.includes('BEGIN CERTIFICATE'), true);
      assert.equal(certificateBody(test.app.samlIdp.key.certificatePem), certificateBody(current.certificate));
    });
  });
});
