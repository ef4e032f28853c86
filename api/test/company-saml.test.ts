// A company's own sign-in through its SAML identity provider (the portal as service provider): GET /auth/empresa sends
// an AuthnRequest by HTTP-Redirect, the IdP's response POSTed to the company's ACS lands the person with an account
// (made, or linked by the rules of the OpenID Connect sign-in), and every attack on the ACS is refused with
// /login?error=…&provider=empresa and nothing written: unsigned, signed by another key, signature wrapping, another
// audience, destination or recipient, out of its time window, unsolicited or answering another company's request,
// replayed (also twice at once), an email outside the company's domains, a document type, an oversized body.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { count, eq, sql } from 'drizzle-orm';
import {
  companyIdentities,
  companyLinkReturns,
  companyMembers,
  samlAssertionsUsed,
  sessions,
  signInReturns,
  users,
} from '../src/db/schema.js';
import * as samlify from 'samlify';
import { addMember } from '../src/domain/companies/members.js';
import { verifiedAssertion } from '../src/domain/companies/sso/saml-sign-in.js';
import { installSamlGuard } from '../src/lib/saml/xml.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';
import { call, insertCompany, memberPassword } from './helpers/company-fixtures.js';
import { OAuthBrowser } from './helpers/oauth-browser.js';
import {
  assertionXml,
  base64,
  idpMetadata,
  readAuthnRequest,
  type ResponseFields,
  responseXml,
  rsaSha1,
  rsaSha256,
  type SigningKey,
  signAssertion,
  signedResponse,
  signingKey,
  signResponse,
} from './helpers/saml-idp.js';

const apiUrl = 'http://api.portal.test';
const portalUrl = 'http://portal.test';
const partner = 'https://socio.example.com/entrada';
const domainA = 'minera-andina.cl';
const domainB = 'textiles-sur.com';
const entityA = 'http://adfs.minera-andina.cl/adfs/services/trust';
const entityB = 'https://sts.windows.net/textiles-sur/';
const ssoA = 'https://adfs.minera-andina.cl/adfs/ls/';
const ssoB = 'https://login.microsoftonline.com/textiles-sur/saml2';
const emailClaim = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress';

let keyA: SigningKey;
let keyB: SigningKey;
let stranger: SigningKey;
describe('company-saml.test.ts', () => {
  before(async () => {
    [keyA, keyB, stranger] = await Promise.all([
      signingKey('adfs.minera-andina.cl'),
      signingKey('textiles-sur'),
      signingKey('atacante.example'),
    ]);
  });

  it('samlify on its own: a wrapped document yields the signed assertion or nothing, never the evil one', () => {
    const idp = { entityId: entityA, ssoUrl: ssoA, certificates: [keyA.certificate] };
    const base: ResponseFields = {
      issuer: entityA,
      audience: 'https://sp.example/metadata',
      acsUrl: 'https://sp.example/acs',
      inResponseTo: '_pedido',
      nameId: `rosa@${domainA}`,
    };
    const evil = assertionXml({ ...base, assertionId: '_malvada', nameId: `jefe@${domainA}` });
    const signed = signAssertion(responseXml(base, assertionXml(base)), keyA);
    const at = signed.indexOf('<saml:Assertion');
    const original = signed.slice(at, signed.indexOf('</saml:Assertion>') + '</saml:Assertion>'.length);
    const variants = [
      signed.replace(original, evil + original),
      signed.replace(original, `<samlp:Extensions>${original}</samlp:Extensions>${evil}`),
      signed.replace(
        original,
        evil.replace(/(<saml:SubjectConfirmationData[^>]*)\/>/, `$1>${original}</saml:SubjectConfirmationData>`),
      ),
      signed.replace(original, evil.replace('<saml:Subject>', `<saml:Advice>${original}</saml:Advice><saml:Subject>`)),
    ];
    const verdicts = variants.map((xml) => verifiedAssertion(xml, idp));
    for (const verdict of verdicts) assert.ok(!verdict.includes('jefe@'), verdict);
    // The evil assertion with its signature stolen in the SubjectConfirmationData is named as wrapping.
    assert.equal(verdicts[2], 'wrapping');
    assert.match(verifiedAssertion(signed, idp), new RegExp(`rosa@${domainA}`));
  });

  forEachBackend((backend) => {
    let t: TestApp;
    let admin: string;
    let companyA: number;
    let companyB: number;

    before(async () => {
      t = await buildTestApp(backend, {
        apiPublicUrl: apiUrl,
        portalUrl,
        redirectAllowList: ['https://socio.example.com'],
        authRateLimitPerMinute: 10_000,
        loginRateLimitPerMinute: 10_000,
      });
      admin = await login(t.app);
      companyA = await insertCompany(t.app, 'Minera Andina');
      companyB = await insertCompany(t.app, 'Textiles Sur');
      for (const [id, entityId, ssoUrl, key, domain] of [
        [companyA, entityA, ssoA, () => keyA, domainA],
        [companyB, entityB, ssoB, () => keyB, domainB],
      ] as const) {
        const saved = await call(t.app, 'PUT', `/admin/empresas/${id}/proveedor`, admin, {
          tipo: 'saml',
          metadata: idpMetadata({ entityId, ssoUrl, certificates: [key().certificate] }),
          dominios: [domain],
          permitirContrasena: true,
        });
        assert.equal(saved.statusCode, 200, saved.body);
      }
    });
    after(() => t.close());

    const sp = (companyId: number) => ({
      entityId: `${apiUrl}/auth/empresa/saml/${companyId}/metadata`,
      acsUrl: `${apiUrl}/auth/empresa/saml/${companyId}/acs`,
    });
    const browser = () => new OAuthBrowser({ app: t.app, apiUrl, portalUrl });
    const person = (domain = domainA) => `persona-${randomUUID().slice(0, 8)}@${domain}`;

    /** The tab starts the company's sign-in: the AuthnRequest the IdP receives. */
    const start = async (who: OAuthBrowser, email: string, redirectUrl: string | null = partner) => {
      const query = new URLSearchParams({
        email,
        binding: who.binding,
        ...(redirectUrl && { redirect_url: redirectUrl }),
      });
      const answer = await t.app.inject({ method: 'GET', url: `/auth/empresa?${query}` });
      assert.equal(answer.statusCode, 302, answer.body);
      return readAuthnRequest(String(answer.headers.location));
    };
    /** What the IdP of `companyId` would assert for `email`, answering `requestId`. */
    const fields = (
      requestId: string,
      email: string,
      overrides: Partial<ResponseFields> = {},
      companyId = companyA,
    ): ResponseFields => ({
      issuer: companyId === companyA ? entityA : entityB,
      ...sp(companyId),
      audience: sp(companyId).entityId,
      inResponseTo: requestId,
      nameId: email,
      ...overrides,
    });
    /** The browser POSTs the response to the company's ACS (form, as the IdP's auto-submitting page does). */
    const postRaw = async (companyId: number, samlResponse: string) => {
      const answer = await t.app.inject({
        method: 'POST',
        url: `/auth/empresa/saml/${companyId}/acs`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '' }).toString(),
      });
      assert.equal(answer.statusCode, 302, answer.body);
      return new URL(String(answer.headers.location));
    };
    const post = (companyId: number, xml: string) => postRaw(companyId, base64(xml));
    const redeem = (code: string, secret: string) =>
      t.app.inject({ method: 'POST', url: '/auth/social/canjear', payload: { code, secret } });
    const landed = async (url: URL, who: OAuthBrowser) => {
      assert.equal(url.origin + url.pathname, `${portalUrl}/auth/google/callback`, url.href);
      assert.equal(url.searchParams.get('provider'), 'empresa');
      assert.equal(url.searchParams.get('redirect_url'), partner);
      const code = url.searchParams.get('code');
      assert.ok(code, url.href);
      const answer = await redeem(code, who.secret);
      assert.equal(answer.statusCode, 200, answer.body);
      return answer.json().access_token as string;
    };
    const currentEmail = async (token: string) => {
      const answer = await t.app.inject({
        method: 'GET',
        url: '/auth/user',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(answer.statusCode, 200, answer.body);
      return answer.json();
    };
    const refusedWith = (url: URL, error: string, redirectUrl: string | null = partner) => {
      assert.equal(url.origin + url.pathname, `${portalUrl}/login`, url.href);
      assert.equal(url.searchParams.get('error'), error, url.href);
      assert.equal(url.searchParams.get('provider'), 'empresa');
      assert.equal(url.searchParams.get('code'), null);
      assert.equal(url.searchParams.get('redirect_url'), redirectUrl);
    };
    const n = async (table: Parameters<ReturnType<typeof t.app.db.select>['from']>[0]) =>
      (await t.app.db.select({ n: count() }).from(table))[0]?.n;
    const written = async () => ({
      users: await n(users),
      sessions: await n(sessions),
      returns: await n(signInReturns),
      links: await n(companyLinkReturns),
      identities: await n(companyIdentities),
      members: await n(companyMembers),
      assertions: await n(samlAssertionsUsed),
    });
    const lastError = async (companyId: number) =>
      (await call(t.app, 'GET', `/empresas/${companyId}/proveedor`, admin)).json().ultimoError as string | null;

    /** Posts what `attack` builds from a fresh request and checks the refusal left nothing behind. */
    const refusal = async (
      attack: (requestId: string, email: string) => string,
      error = 'auth_failed',
      companyId = companyA,
      redirectUrl: string | null = partner,
    ) => {
      const email = person(companyId === companyA ? domainA : domainB);
      const who = browser();
      const request = await start(who, email);
      const before = await written();
      const url = await post(companyId, attack(request.id, email));
      refusedWith(url, error, redirectUrl);
      assert.deepEqual(await written(), before);
      assert.deepEqual(await t.app.db.select().from(users).where(eq(users.email, email)), []);
      // The request it failed to answer still waits for a good response: the refusal consumed nothing.
      const good = await post(
        companyId,
        signedResponse(fields(request.id, email, {}, companyId), companyId === companyA ? keyA : keyB),
      );
      await landed(good, who);
    };

    it('GET /auth/empresa sends an unsigned AuthnRequest by HTTP-Redirect to the IdP, naming the ACS and the entity ID', async () => {
      const who = browser();
      const answer = await t.app.inject({
        method: 'GET',
        url: `/auth/empresa?${new URLSearchParams({ email: person(), binding: who.binding })}`,
      });
      assert.equal(answer.statusCode, 302);
      const location = new URL(String(answer.headers.location));
      assert.equal(location.origin + location.pathname, ssoA);
      assert.equal(location.searchParams.get('Signature'), null);
      const request = readAuthnRequest(location.href);
      assert.match(request.id, /^_[0-9a-f]{40}$/);
      assert.equal(request.acs, sp(companyA).acsUrl);
      assert.equal(request.destination, ssoA);
      assert.match(request.xml, new RegExp(`<saml:Issuer>${sp(companyA).entityId}</saml:Issuer>`));
      assert.match(request.xml, /ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"/);
    });

    it('a first sign-in makes the account; the return code is redeemable only with the secret of the tab that started', async () => {
      const email = person();
      const who = browser();
      const request = await start(who, email);
      const url = await post(companyA, signedResponse(fields(request.id, email), keyA));
      assert.equal(url.pathname, '/auth/google/callback', url.href);
      const code = url.searchParams.get('code') as string;
      // Another tab (the one that posted someone else's response, say) cannot redeem it; the code is then spent.
      assert.notEqual((await redeem(code, browser().secret)).statusCode, 200);
      assert.notEqual((await redeem(code, who.secret)).statusCode, 200);
      const [user] = await t.app.db.select().from(users).where(eq(users.email, email));
      assert.equal(user?.status, 'active');
      const [member] = await t.app.db
        .select()
        .from(companyMembers)
        .where(eq(companyMembers.userId, user?.id ?? 0));
      assert.equal(member?.companyId, companyA);
      assert.equal(member?.status, 'active');

      // The next sign-in finds the linked account and lands with a code for this tab.
      const again = browser();
      const next = await start(again, email);
      const token = await landed(await post(companyA, signedResponse(fields(next.id, email), keyA)), again);
      assert.equal((await currentEmail(token)).email, email);
      assert.equal(
        (await call(t.app, 'GET', `/empresas/${companyA}/proveedor`, admin)).json().ultimoAcceso !== null,
        true,
      );
    });

    it('the email comes from the AD FS / Entra claim when the NameID is persistent, with the names', async () => {
      const email = person();
      const who = browser();
      const request = await start(who, email);
      const response = signedResponse(
        fields(request.id, email, {
          nameId: `entra-${randomUUID()}`,
          nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
          attributes: {
            [emailClaim]: email.toUpperCase(),
            'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname': 'Rosa',
            'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname': 'Huamán',
          },
        }),
        keyA,
      );
      const token = await landed(await post(companyA, response), who);
      const user = await currentEmail(token);
      assert.equal(user.email, email);
      assert.equal(user.name, 'Rosa');
      assert.equal(user.lastName, 'Huamán');
    });

    it("the IdP's own MFA class (REFEDS MFA, Entra's multipleauthn) counts as a second factor once the company trusts it", async () => {
      /** A sign-in whose assertion names `classRef`: whether its portal session proved a second factor. */
      const provedWith = async (classRef?: string) => {
        const email = person();
        const who = browser();
        const request = await start(who, email);
        const token = await landed(
          await post(companyA, signedResponse(fields(request.id, email, { authnContextClassRef: classRef }), keyA)),
          who,
        );
        const security = await call(t.app, 'GET', '/auth/seguridad', token);
        return security.json().sessionVerified as boolean;
      };
      const refedsMfa = 'https://refeds.org/profile/mfa';
      const entraMfa = 'http://schemas.microsoft.com/claims/multipleauthn';
      assert.equal(await provedWith(refedsMfa), false, 'not trusted by default');
      const trusted = await call(t.app, 'PATCH', `/empresas/${companyA}/ajustes`, admin, {
        confiarSegundoFactorDelProveedor: true,
      });
      assert.equal(trusted.statusCode, 200, trusted.body);
      try {
        assert.deepEqual(
          [
            await provedWith(refedsMfa),
            await provedWith(entraMfa),
            await provedWith(),
            await provedWith('https://refeds.org/profile/sfa'),
          ],
          [true, true, false, false],
        );
      } finally {
        await call(t.app, 'PATCH', `/empresas/${companyA}/ajustes`, admin, { confiarSegundoFactorDelProveedor: false });
      }
    });

    it("'only our own sign-in' means this company's SAML provider: another company's is refused at its doors", async () => {
      /** A sign-in through the SAML provider of `companyId`: its token and its session row. */
      const signedInThrough = async (companyId: number) => {
        const email = person(companyId === companyA ? domainA : domainB);
        const who = browser();
        const request = await start(who, email);
        const key = companyId === companyA ? keyA : keyB;
        const token = await landed(
          await post(companyId, signedResponse(fields(request.id, email, {}, companyId), key)),
          who,
        );
        const verified = await t.app.tokens.verify(token, ['session'], { fresh: true });
        const [row] = await t.app.db
          .select()
          .from(sessions)
          .where(eq(sessions.id, verified?.sessionId ?? ''));
        return { email, token, row };
      };
      const partnerToken = (token: string) =>
        call(t.app, 'POST', '/auth/partner-token', token, { redirect_url: partner });
      const guest = await signedInThrough(companyB);
      const own = await signedInThrough(companyA);
      assert.equal(guest.row?.ssoCompanyId, companyB, 'the session records whose provider signed it in');
      assert.equal(own.row?.ssoCompanyId, companyA);
      await addMember(t.app.db, companyA, guest.row?.userId ?? 0, 'miembro');
      try {
        await t.app.db.execute(sql`update companies set allowed_methods = '{empresa}' where id = ${companyA}`);
        const refused = await partnerToken(guest.token);
        assert.equal(refused.statusCode, 403, refused.body);
        assert.equal(refused.json().code, 'METODO_NO_PERMITIDO');
        assert.match(refused.json().message, /con el inicio de sesión de otra empresa/);
        assert.equal((await partnerToken(own.token)).statusCode, 200, "the company's own provider passes");
      } finally {
        await t.app.db.execute(
          sql`update companies set allowed_methods = '{contrasena,google,apple,llave,empresa}' where id = ${companyA}`,
        );
      }
    });

    it('what standard IdPs send is taken: the Response signed, the Assertion signed, or both; the mail attribute', async () => {
      for (const signed of ['response', 'assertion', 'both'] as const) {
        const email = person();
        const who = browser();
        const request = await start(who, email);
        const response = signedResponse(
          fields(request.id, email, {
            nameId: `_transitorio${randomUUID()}`,
            nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
            attributes: { mail: email },
          }),
          keyA,
          signed,
        );
        assert.equal((await currentEmail(await landed(await post(companyA, response), who))).email, email);
      }
    });

    it('an IdP naming attributes by OID (Shibboleth, pysaml2, SimpleSAMLphp): a transient NameID, the mail and names', async () => {
      const oidResponse = (
        requestId: string,
        email: string,
        names: Record<string, string>,
        mail = 'urn:oid:0.9.2342.19200300.100.1.3',
      ) =>
        signedResponse(
          fields(requestId, email, {
            nameId: `_transitorio${randomUUID()}`,
            nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
            attributes: { [mail]: email, ...names },
          }),
          keyA,
        );
      const email = person();
      const who = browser();
      const request = await start(who, email);
      const token = await landed(
        await post(
          companyA,
          oidResponse(request.id, email, { 'urn:oid:2.5.4.42': 'Rosa', 'urn:oid:2.5.4.4': 'Huamán' }),
        ),
        who,
      );
      assert.deepEqual((({ email, name, lastName }) => ({ email, name, lastName }))(await currentEmail(token)), {
        email,
        name: 'Rosa',
        lastName: 'Huamán',
      });
      // Only displayName, and the email as SimpleSAMLphp's name2oid names `email` (PKCS #9): the whole name is the first.
      const other = person();
      const second = browser();
      const secondRequest = await start(second, other);
      const user = await currentEmail(
        await landed(
          await post(
            companyA,
            oidResponse(
              secondRequest.id,
              other,
              { 'urn:oid:2.16.840.1.113730.3.1.241': 'Lucía Quispe' },
              'urn:oid:1.2.840.113549.1.9.1',
            ),
          ),
          second,
        ),
      );
      assert.deepEqual([user.email, user.name, user.lastName], [other, 'Lucía Quispe', '']);
    });

    it("a response made by samlify's own IdentityProvider from the portal's SP metadata is taken", async () => {
      installSamlGuard();
      const email = person();
      const who = browser();
      const request = await start(who, email);
      const spMetadata = await t.app.inject({ method: 'GET', url: `/auth/empresa/saml/${companyA}/metadata` });
      const idp = samlify.IdentityProvider({
        metadata: idpMetadata({ entityId: entityA, ssoUrl: ssoA, certificates: [keyA.certificate] }),
        privateKey: keyA.privateKeyPem,
        wantAuthnRequestsSigned: false,
      });
      const { context } = await idp.createLoginResponse(
        samlify.ServiceProvider({ metadata: spMetadata.body }),
        { extract: { request: { id: request.id } } },
        'post',
        { email },
      );
      assert.equal((await currentEmail(await landed(await postRaw(companyA, context), who))).email, email);
    });

    it('during a certificate rollover either certificate of the metadata signs', async () => {
      const companyC = await insertCompany(t.app, 'Eléctrica Central');
      const domainC = 'electrica-central.pe';
      const entityC = 'https://idp.electrica-central.pe/saml';
      const saved = await call(t.app, 'PUT', `/admin/empresas/${companyC}/proveedor`, admin, {
        tipo: 'saml',
        metadata: idpMetadata({
          entityId: entityC,
          ssoUrl: 'https://idp.electrica-central.pe/sso',
          certificates: [keyB.certificate, keyA.certificate],
        }),
        dominios: [domainC],
        permitirContrasena: true,
      });
      assert.equal(saved.statusCode, 200, saved.body);
      for (const key of [keyB, keyA]) {
        const email = person(domainC);
        const who = browser();
        const request = await start(who, email);
        const response = signedResponse({ ...fields(request.id, email, {}, companyC), issuer: entityC }, key);
        assert.equal((await currentEmail(await landed(await post(companyC, response), who))).email, email);
      }
    });

    it('an account with a password of its own is linked only after its owner signs in and confirms', async () => {
      const email = person();
      await createUser(t.app, { email, password: memberPassword, status: 'active' });
      const who = browser();
      const request = await start(who, email);
      const url = await post(companyA, signedResponse(fields(request.id, email), keyA));
      assert.equal(url.pathname, '/login', url.href);
      const codigo = url.searchParams.get('vincular');
      assert.ok(codigo, url.href);
      assert.equal(url.searchParams.get('empresa'), 'Minera Andina');
      const session = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email, password: memberPassword },
      });
      assert.equal(session.statusCode, 200, session.body);
      const linked = await t.app.inject({
        method: 'POST',
        url: '/auth/empresa/vincular',
        headers: { authorization: `Bearer ${session.json().access_token}` },
        payload: { codigo, secreto: who.secret },
      });
      assert.equal(linked.statusCode, 200, linked.body);
      assert.deepEqual(linked.json(), { empresa: { id: companyA, nombre: 'Minera Andina' } });
    });

    it("an address with its domain's final dot is the same account: linked, or the link step for one with a password", async () => {
      const email = person();
      const first = browser();
      const token = await landed(
        await post(companyA, signedResponse(fields((await start(first, email)).id, email), keyA)),
        first,
      );
      const id = (await currentEmail(token)).id;
      for (const nameIdFormat of [undefined, 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient']) {
        const who = browser();
        const request = await start(who, email);
        const dotted = signedResponse(
          fields(request.id, `${email.toUpperCase()}.`, {
            ...(nameIdFormat && { nameId: `_transitorio${randomUUID()}`, nameIdFormat }),
            attributes: { mail: `${email}.` },
          }),
          keyA,
        );
        assert.equal((await currentEmail(await landed(await post(companyA, dotted), who))).id, id);
      }
      const owner = person();
      await createUser(t.app, { email: owner, password: memberPassword, status: 'active' });
      const who = browser();
      const request = await start(who, `${owner}.`);
      const url = await post(companyA, signedResponse(fields(request.id, `${owner}.`), keyA));
      assert.equal(url.pathname, '/login', url.href);
      assert.ok(url.searchParams.get('vincular'), url.href);
      assert.deepEqual(
        await t.app.db
          .select()
          .from(users)
          .where(eq(users.email, `${email}.`)),
        [],
      );
      assert.deepEqual(
        await t.app.db
          .select()
          .from(users)
          .where(eq(users.email, `${owner}.`)),
        [],
      );
    });

    it('refused: a response and assertion both unsigned', async () => {
      await refusal((id, email) => signedResponse(fields(id, email), keyA, 'none'));
      assert.match((await lastError(companyA)) ?? '', /no venía firmada con un certificado de los metadatos/);
    });

    it("refused: signed by a key not in the metadata (its own certificate in KeyInfo, or the metadata's)", async () => {
      await refusal((id, email) => signedResponse(fields(id, email), stranger, 'both'));
      await refusal((id, email) =>
        signedResponse(fields(id, email), {
          ...stranger,
          certificatePem: keyA.certificatePem,
          certificate: keyA.certificate,
        }),
      );
    });

    it('refused: a signed assertion changed after signing', async () => {
      await refusal((id, email) =>
        signedResponse(fields(id, email.replace('persona-', 'otra-')), keyA).replace(
          email.replace('persona-', 'otra-'),
          email,
        ),
      );
    });

    it('refused: signature wrapping (XSW) — the signed assertion moved beside, under or inside an evil one', async () => {
      const evilOf = (id: string, email: string) =>
        assertionXml(fields(id, email, { assertionId: '_malvada', nameId: `jefe@${domainA}` }));
      const signedOf = (id: string, email: string) =>
        signAssertion(responseXml(fields(id, email), assertionXml(fields(id, email))), keyA);
      const signedAssertion = (xml: string) => {
        const at = xml.indexOf('<saml:Assertion');
        return xml.slice(at, xml.indexOf('</saml:Assertion>', at) + '</saml:Assertion>'.length);
      };
      // The evil assertion first, the signed one after it.
      await refusal((id, email) => {
        const signed = signedOf(id, email);
        return signed.replace(signedAssertion(signed), evilOf(id, email) + signedAssertion(signed));
      });
      // The signed one hidden in an Extensions element, the evil one read in its place.
      await refusal((id, email) => {
        const signed = signedOf(id, email);
        return signed.replace(
          signedAssertion(signed),
          `<samlp:Extensions>${signedAssertion(signed)}</samlp:Extensions>${evilOf(id, email)}`,
        );
      });
      // The signed one inside the evil assertion's SubjectConfirmationData (the classic XSW against SPs that look
      // for the signed ID anywhere).
      await refusal((id, email) => {
        const signed = signedOf(id, email);
        const evil = evilOf(id, email).replace(
          /(<saml:SubjectConfirmationData[^>]*)\/>/,
          `$1>${signedAssertion(signed)}</saml:SubjectConfirmationData>`,
        );
        return signed.replace(signedAssertion(signed), evil);
      });
      // A signed Response nested in an evil one's Extensions: the evil Response carries no signature of its own.
      await refusal((id, email) => {
        const signed = signResponse(responseXml(fields(id, email), assertionXml(fields(id, email))), keyA);
        return responseXml(
          fields(id, email, { responseId: '_envoltorio' }),
          `<samlp:Extensions>${signed.replace(/<saml:Assertion[\s\S]*<\/saml:Assertion>/, '')}</samlp:Extensions>${evilOf(id, email)}`,
        );
      });
      // The same ID on the evil assertion and the signed one.
      await refusal((id, email) => {
        const signed = signedOf(id, email);
        const signedId = /<saml:Assertion[^>]*\sID="([^"]+)"/.exec(signed)?.[1] ?? '';
        const evil = evilOf(id, email).replace('ID="_malvada"', `ID="${signedId}"`);
        return signed.replace(signedAssertion(signed), evil + signedAssertion(signed));
      });
    });

    it('refused: a second assertion or an encrypted one under any namespace prefix, a non-ASCII one too', async () => {
      // The same namespace (or another) under a prefix no ASCII pattern matches: only a namespace-aware count sees it.
      const renamed = (xml: string, namespace = 'urn:oasis:names:tc:SAML:2.0:assertion') =>
        xml.replace(/(<\/?)saml:/g, '$1ñ:').replace(/xmlns:saml="[^"]*"/, `xmlns:ñ="${namespace}"`);
      const evilOf = (id: string, email: string) =>
        assertionXml(fields(id, email, { assertionId: '_malvada', nameId: `jefe@${domainA}` }));
      const withSigned = (id: string, email: string, place: (signed: string) => string) => {
        const signed = signedResponse(fields(id, email), keyA);
        const at = signed.indexOf('<saml:Assertion');
        const assertion = signed.slice(at, signed.indexOf('</saml:Assertion>', at) + '</saml:Assertion>'.length);
        return signed.replace(assertion, place(assertion));
      };
      await refusal((id, email) => withSigned(id, email, (signed) => renamed(evilOf(id, email)) + signed));
      await refusal((id, email) => withSigned(id, email, (signed) => signed + renamed(evilOf(id, email))));
      await refusal((id, email) =>
        withSigned(id, email, (signed) => renamed(evilOf(id, email), 'urn:ejemplo:otro') + signed),
      );
      await refusal((id, email) =>
        withSigned(
          id,
          email,
          (signed) =>
            `${signed}<ñ:EncryptedAssertion xmlns:ñ="urn:oasis:names:tc:SAML:2.0:assertion"><xenc:EncryptedData xmlns:xenc="http://www.w3.org/2001/04/xmlenc#"/></ñ:EncryptedAssertion>`,
        ),
      );
    });

    it('refused: signed with RSA-SHA1 or over SHA-1 digests (IT is told to sign with RSA-SHA256), or another algorithm off the list', async () => {
      for (const signed of ['assertion', 'response', 'both'] as const)
        await refusal((id, email) => signedResponse(fields(id, email), keyA, signed, rsaSha1));
      await refusal((id, email) =>
        signedResponse(fields(id, email), keyA, 'assertion', { ...rsaSha256, digest: rsaSha1.digest }),
      );
      await refusal((id, email) =>
        signedResponse(fields(id, email), keyA, 'assertion', { ...rsaSha1, digest: rsaSha256.digest }),
      );
      // The assertion signed with RSA-SHA256 inside a response signed with RSA-SHA1.
      await refusal((id, email) =>
        signResponse(
          signAssertion(responseXml(fields(id, email), assertionXml(fields(id, email))), keyA),
          keyA,
          rsaSha1,
        ),
      );
      assert.equal(
        await lastError(companyA),
        'El proveedor firma con SHA-1, que ya no es seguro. Configúralo para firmar con RSA-SHA256.',
      );
      // Any other algorithm off the list is refused by name; RSA-SHA512 over SHA-512 is taken.
      await refusal((id, email) =>
        signedResponse(fields(id, email), keyA).replace('xmldsig-more#rsa-sha256', 'xmldsig-more#hmac-sha256'),
      );
      assert.match(
        (await lastError(companyA)) ?? '',
        /no acepta \(http:\/\/www\.w3\.org\/2001\/04\/xmldsig-more#hmac-sha256\)/,
      );
      const email = person();
      const who = browser();
      const request = await start(who, email);
      const sha512 = signedResponse(fields(request.id, email), keyA, 'both', {
        signature: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
        digest: 'http://www.w3.org/2001/04/xmlenc#sha512',
      });
      assert.equal((await currentEmail(await landed(await post(companyA, sha512), who))).email, email);
    });

    it("refused: another audience (recorded for the company's IT), destination or recipient", async () => {
      await refusal((id, email) =>
        signedResponse(fields(id, email, { audience: 'https://otra-app.example.com' }), keyA),
      );
      assert.match((await lastError(companyA)) ?? '', new RegExp(`debe ser ${sp(companyA).entityId}`));
      await refusal((id, email) =>
        signedResponse(fields(id, email, { destination: 'https://otra-app.example.com/acs' }), keyA, 'both'),
      );
      await refusal((id, email) => signedResponse(fields(id, email, { recipient: sp(companyB).acsUrl }), keyA));
      assert.match((await lastError(companyA)) ?? '', new RegExp(`debe ser ${sp(companyA).acsUrl}`));
    });

    it('refused: expired, not yet valid, beyond the 2 minutes of skew; within them it is taken', async () => {
      const minutes = (m: number) => new Date(Date.now() + m * 60_000);
      await refusal((id, email) => signedResponse(fields(id, email, { notOnOrAfter: minutes(-10) }), keyA));
      assert.match((await lastError(companyA)) ?? '', /revisa la hora del servidor del proveedor/);
      await refusal((id, email) => signedResponse(fields(id, email, { notBefore: minutes(10) }), keyA));
      await refusal((id, email) => signedResponse(fields(id, email, { notOnOrAfter: minutes(-2.5) }), keyA));
      await refusal((id, email) => signedResponse(fields(id, email, { notBefore: minutes(2.5) }), keyA));
      await refusal((id, email) =>
        signedResponse(fields(id, email, { confirmationNotOnOrAfter: minutes(-2.5) }), keyA),
      );
      const email = person();
      const who = browser();
      const request = await start(who, email);
      const skewed = signedResponse(
        fields(request.id, email, { notBefore: minutes(1.5), notOnOrAfter: minutes(-1.5) }),
        keyA,
      );
      await landed(await post(companyA, skewed), who);
    });

    it("refused: an unsolicited response, one answering no request, another company's request, or confirming another", async () => {
      const before = await written();
      const email = person();
      // IdP-initiated: no InResponseTo at all.
      const unsolicited = signedResponse(fields('', email), keyA).replace(/ InResponseTo=""/g, '');
      refusedWith(await post(companyA, unsolicited), 'auth_failed', null);
      refusedWith(await post(companyA, signedResponse(fields('_inventado', email), keyA)), 'auth_failed', null);
      // A request the tab started with company B, answered (by A's IdP) at A's ACS.
      const who = browser();
      const requestB = await start(who, person(domainB));
      refusedWith(await post(companyA, signedResponse(fields(requestB.id, email), keyA)), 'auth_failed', null);
      assert.deepEqual(await written(), before);
      // The envelope answers this tab's request, the signed confirmation another one.
      await refusal((id, email) => signedResponse(fields(id, email, { confirmationInResponseTo: requestB.id }), keyA));
    });

    it("another browser posting a victim's response gets a code only the victim's tab can redeem", async () => {
      const email = person();
      const victim = browser();
      const request = await start(victim, email);
      const response = signedResponse(fields(request.id, email), keyA);
      const url = await post(companyA, response);
      const code = url.searchParams.get('code') as string;
      const attacker = browser();
      assert.notEqual((await redeem(code, attacker.secret)).statusCode, 200);
    });

    it('refused: a response used twice, also when both arrive at once; an assertion ID seen before', async () => {
      const email = person();
      const who = browser();
      const request = await start(who, email);
      const response = signedResponse(fields(request.id, email), keyA);
      await landed(await post(companyA, response), who);
      const before = await written();
      refusedWith(await post(companyA, response), 'auth_failed', null);
      assert.deepEqual(await written(), before);

      const raced = browser();
      const racedRequest = await start(raced, email);
      const twice = signedResponse(fields(racedRequest.id, email), keyA);
      const [first, second] = await Promise.all([post(companyA, twice), post(companyA, twice)]);
      const codes = [first, second].filter((url) => url.searchParams.get('code'));
      assert.equal(codes.length, 1, `${first.href} ${second.href}`);
      // The loser is refused before or after reading the request: with its destination or without.
      const loser = [first, second].find((url) => !url.searchParams.get('code')) as URL;
      refusedWith(loser, 'auth_failed', loser.searchParams.get('redirect_url'));

      // The same assertion (issuer and ID) answering a new request is a replay too.
      const reused = browser();
      const reusedRequest = await start(reused, email);
      await landed(
        await post(companyA, signedResponse(fields(reusedRequest.id, email, { assertionId: '_una-vez' }), keyA)),
        reused,
      );
      await refusal((id, email) => signedResponse(fields(id, email, { assertionId: '_una-vez' }), keyA));
    });

    it('a comment inside the signed NameID or email claim does not cut the address short', async () => {
      // The signature ignores comments: a reader that stops at the first text node would read jefe@minera-andina.cl.
      const outsider = `jefe@${domainA}.atacante.example`;
      const cut = (xml: string) => xml.replace(`jefe@${domainA}.`, `jefe@${domainA}<!---->.`);
      await refusal((id) => cut(signedResponse(fields(id, outsider), keyA)), 'company_domain_mismatch');
      await refusal(
        (id) =>
          cut(
            signedResponse(
              fields(id, outsider, {
                nameId: `_persistente${randomUUID()}`,
                nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
                attributes: { [emailClaim]: outsider },
              }),
              keyA,
            ),
          ),
        'company_domain_mismatch',
      );
      assert.deepEqual(
        await t.app.db
          .select()
          .from(users)
          .where(eq(users.email, `jefe@${domainA}`)),
        [],
      );
    });

    it("refused: an email outside the company's proved domains; a response with an error status", async () => {
      await refusal((id) => signedResponse(fields(id, `intruso@${domainB}`), keyA), 'company_domain_mismatch');
      await refusal((id, email) =>
        signedResponse(fields(id, email, { status: 'urn:oasis:names:tc:SAML:2.0:status:Responder' }), keyA),
      );
      assert.match((await lastError(companyA)) ?? '', /respondió a la solicitud de inicio de sesión con un error/);
    });

    it('refused: a document type or entity in the response; an oversized body is 413 with nothing written', async () => {
      // Refused before anything of it is read: the request it names is not looked up.
      await refusal(
        (id, email) =>
          `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${signedResponse(fields(id, email), keyA)}`,
        'auth_failed',
        companyA,
        null,
      );
      await refusal(
        (id, email) => signedResponse(fields(id, email), keyA).replace('<saml:Issuer>', '<!DOCTYPE x><saml:Issuer>'),
        'auth_failed',
        companyA,
        null,
      );
      const before = await written();
      const huge = await t.app.inject({
        method: 'POST',
        url: `/auth/empresa/saml/${companyA}/acs`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `SAMLResponse=${'A'.repeat(300 * 1024)}`,
      });
      assert.equal(huge.statusCode, 413, huge.body);
      assert.match(huge.json().message, /demasiado grande/);
      assert.deepEqual(await written(), before);
      refusedWith(await postRaw(companyA, 'no es base64 ni XML'), 'auth_failed', null);
      refusedWith(await postRaw(companyA, ''), 'auth_failed', null);
    });

    it('a company without a SAML connection has no ACS: company_unavailable', async () => {
      const none = await insertCompany(t.app, 'Sin Acceso');
      refusedWith(await post(none, '<samlp:Response/>'), 'company_unavailable', null);
    });
  });
});
