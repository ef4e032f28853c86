// A company's directory provisions its people over SCIM 2.0 (/scim/v2): the token its owner creates, the sequences
// Microsoft Entra ID and Okta document, the edges a directory hits (Entra's "False", filters, paging, domains,
// duplicates, malformed bodies, the last owner), what deprovisioning takes and keeps, and the company's request log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  auditLog,
  companyLicences,
  companyMembers,
  companyScimRequests,
  companyScimUsers,
  companySeats,
  userPlans,
  users,
} from '../src/db/schema.js';
import { addMember } from '../src/domain/companies/members.js';
import { buildTestApp, forEachBackend, login, sessionToken, type TestApp } from './helpers/app.js';
import { insertCompany, insertMember, planOf } from './helpers/company-fixtures.js';
import { entraUser, proveDomain, scim, scimCompany, scimError, type ScimCompany } from './helpers/scim-fixtures.js';

type Json = Record<string, unknown>;
type UserBody = {
  id: string;
  userName: string;
  externalId?: string;
  active: boolean;
  name: Json;
  displayName?: string;
  emails: Json[];
  meta: Json;
  schemas: string[];
};
type ListBody = {
  schemas: string[];
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
  Resources?: UserBody[];
};

const scimType = 'application/scim+json; charset=utf-8';

forEachBackend((backend) => {
  describe(`SCIM 2.0 provisioning (${backend})`, () => {
    let test: TestApp;
    let app: FastifyInstance;
    let admin: string;
    let serial = 0;
    const baseUrl = 'http://localhost:3000/scim/v2';

    /** A company of its own per test, at a domain of its own. */
    async function company(seats = 5): Promise<ScimCompany> {
      serial += 1;
      return scimCompany(app, admin, `Minera ${serial} S.A.`, `minera-scim-${serial}.cl`, seats);
    }

    const membership = async (companyId: number, userId: number) =>
      (
        await app.db
          .select()
          .from(companyMembers)
          .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)))
      )[0];
    const accountOf = async (email: string) => (await app.db.select().from(users).where(eq(users.email, email)))[0];
    const seatsInUse = async (companyId: number) =>
      (await app.db.select().from(companyLicences).where(eq(companyLicences.companyId, companyId)))[0]?.seatsInUse;

    before(async () => {
      test = await buildTestApp(backend, { apiPublicUrl: 'http://localhost:3000' });
      app = test.app;
      admin = await login(app);
    });
    after(() => test.close());

    describe('directory tokens', () => {
      it('the owner creates one (shown once), administrators list prefixes, a revoked one is refused', async () => {
        const acme = await company();
        const ownerToken = await acme.owner.token();
        const created = await app.inject({
          method: 'POST',
          url: `/empresas/${acme.companyId}/scim/tokens`,
          headers: { authorization: `Bearer ${ownerToken}` },
          payload: { descripcion: 'Okta' },
        });
        assert.equal(created.statusCode, 201, created.body);
        const token = created.json<{ id: number; token: string; prefijo: string; urlBase: string; creado: string }>();
        assert.match(token.token, /^scim_[A-Za-z0-9_-]{43}$/);
        assert.equal(token.prefijo, token.token.slice(0, 12));
        assert.equal(token.urlBase, baseUrl);
        assert.deepEqual(Object.keys(created.json()).sort(), [
          'creado',
          'descripcion',
          'id',
          'prefijo',
          'token',
          'urlBase',
        ]);

        const manager = await insertMember(app, acme.companyId, `admin@${acme.domain}`, 'administrador');
        const managerToken = await manager.token();
        const list = await app.inject({
          method: 'GET',
          url: `/empresas/${acme.companyId}/scim/tokens`,
          headers: { authorization: `Bearer ${managerToken}` },
        });
        assert.equal(list.statusCode, 200, list.body);
        const listed = list.json<{ data: Json[]; urlBase: string }>();
        assert.equal(listed.urlBase, baseUrl);
        assert.equal(listed.data.length, 2);
        assert.ok(!list.body.includes(token.token), 'the list never shows a token');
        const okta = listed.data.find((row) => row.id === token.id);
        assert.deepEqual(okta, {
          id: token.id,
          prefijo: token.prefijo,
          descripcion: 'Okta',
          creado: token.creado,
          creadoPor: acme.owner.email,
          ultimoUso: null,
          revocado: null,
        });

        const refused = await app.inject({
          method: 'POST',
          url: `/empresas/${acme.companyId}/scim/tokens`,
          headers: { authorization: `Bearer ${managerToken}` },
          payload: {},
        });
        assert.equal(refused.statusCode, 403, 'an administrador cannot create one');
        const notRevoked = await app.inject({
          method: 'DELETE',
          url: `/empresas/${acme.companyId}/scim/tokens/${token.id}`,
          headers: { authorization: `Bearer ${managerToken}` },
        });
        assert.equal(notRevoked.statusCode, 403, 'nor revoke one');

        assert.equal((await scim(app, token.token, 'GET', '/Users')).statusCode, 200);
        const used = (
          await app.inject({
            method: 'GET',
            url: `/empresas/${acme.companyId}/scim/tokens`,
            headers: { authorization: `Bearer ${managerToken}` },
          })
        ).json<{ data: Json[] }>();
        assert.ok(used.data.find((row) => row.id === token.id)?.ultimoUso, 'its last use is shown');

        const revoked = await app.inject({
          method: 'DELETE',
          url: `/empresas/${acme.companyId}/scim/tokens/${token.id}`,
          headers: { authorization: `Bearer ${ownerToken}` },
        });
        assert.equal(revoked.statusCode, 204, revoked.body);
        scimError(await scim(app, token.token, 'GET', '/Users'), 401);
        scimError(await scim(app, token.token, 'GET', '/Groups'), 401);
        // The revoked token's use is a failure in the company's log: once a minute, however often it is tried.
        const refusedUses = await app.db
          .select({ details: auditLog.details })
          .from(auditLog)
          .where(and(eq(auditLog.action, 'company.scim_token_refused'), eq(auditLog.companyId, acme.companyId)));
        assert.deepEqual(
          refusedUses.map(({ details }) => [details.tokenId, details.prefijo, details.address]),
          [[token.id, token.token.slice(0, 12), '127.0.0.1']],
        );
        const unknown = await app.inject({
          method: 'DELETE',
          url: `/empresas/${acme.companyId}/scim/tokens/999999`,
          headers: { authorization: `Bearer ${ownerToken}` },
        });
        assert.equal(unknown.statusCode, 404);
        assert.equal(unknown.json<{ code: string }>().code, 'TOKEN_NO_ENCONTRADO');
        const [audit] = await app.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'company.scim_token_revoke'), eq(auditLog.companyId, acme.companyId)));
        assert.equal(audit?.actorEmail, acme.owner.email);

        scimError(await scim(app, undefined, 'GET', '/Users'), 401);
        scimError(await scim(app, 'scim_nope', 'GET', '/Users'), 401);
      });

      it("another company's token never sees this company's people", async () => {
        const acme = await company();
        const other = await company();
        const created = await scim(app, acme.token, 'POST', '/Users', entraUser(`ana@${acme.domain}`, 'ana-1'));
        assert.equal(created.statusCode, 201, created.body);
        const { id } = created.json<UserBody>();
        scimError(await scim(app, other.token, 'GET', `/Users/${id}`), 404);
        const listed = (await scim(app, other.token, 'GET', '/Users')).json<ListBody>();
        assert.deepEqual(
          listed.Resources?.map((user) => user.userName),
          [],
        );
        const filtered = await scim(
          app,
          other.token,
          'GET',
          `/Users?filter=${encodeURIComponent(`userName eq "ana@${acme.domain}"`)}`,
        );
        assert.equal(filtered.json<ListBody>().totalResults, 0);
        scimError(
          await scim(app, other.token, 'PATCH', `/Users/${id}`, {
            Operations: [{ op: 'replace', path: 'active', value: false }],
          }),
          404,
        );
        scimError(await scim(app, other.token, 'DELETE', `/Users/${id}`), 404);
        assert.equal((await scim(app, acme.token, 'GET', `/Users/${id}`)).json<UserBody>().active, true);
      });
    });

    describe('a domain that leaves the company', () => {
      it("takes the directory's hold with it: the token no longer reads, deactivates or re-activates its people", async () => {
        const acme = await company();
        const created = await scim(app, acme.token, 'POST', '/Users', entraUser(`ana@${acme.domain}`, 'ana-2'));
        assert.equal(created.statusCode, 201, created.body);
        const { id } = created.json<UserBody>();
        const ana = await accountOf(`ana@${acme.domain}`);
        assert.ok(ana);
        // The owner removes the domain, and another company proves it.
        const removed = await app.inject({
          method: 'DELETE',
          url: `/empresas/${acme.companyId}/dominios/${acme.domain}`,
          headers: { authorization: `Bearer ${await acme.owner.token()}` },
        });
        assert.equal(removed.statusCode, 204, removed.body);
        const other = await company();
        await proveDomain(app, admin, other.companyId, acme.domain);

        scimError(await scim(app, acme.token, 'GET', `/Users/${id}`), 404);
        const deactivate = { Operations: [{ op: 'replace', path: 'active', value: false }] };
        scimError(await scim(app, acme.token, 'PATCH', `/Users/${id}`, deactivate), 404);
        scimError(await scim(app, acme.token, 'PUT', `/Users/${id}`, entraUser(`ana@${acme.domain}`, 'ana-2')), 404);
        scimError(await scim(app, acme.token, 'DELETE', `/Users/${id}`), 404);
        const filter = encodeURIComponent(`userName eq "ana@${acme.domain}"`);
        assert.equal((await scim(app, acme.token, 'GET', `/Users?filter=${filter}`)).json<ListBody>().totalResults, 0);
        scimError(
          await scim(app, acme.token, 'POST', '/Users', entraUser(`ana@${acme.domain}`, 'ana-2')),
          400,
          'invalidValue',
        );
        // She stays a member of the company, managed in its panel; the removal says what it released.
        assert.equal((await membership(acme.companyId, ana.id))?.status, 'active');
        const [entry] = await app.db
          .select({ details: auditLog.details })
          .from(auditLog)
          .where(and(eq(auditLog.companyId, acme.companyId), eq(auditLog.action, 'company.domain_remove')));
        assert.deepEqual(entry?.details, { domain: acme.domain, proved: true, directorioLiberado: 1 });
      });
    });

    describe("Microsoft Entra ID's documented provisioning sequence", () => {
      it('finds nothing, creates, reads, finds, deactivates with "False", updates, deletes', async () => {
        const acme = await company();
        const userName = `Test_User_dfeef4c5-5681-4387-b016-bdf221e82081@${acme.domain}`;
        const byUserName = `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`;

        const none = await scim(app, acme.token, 'GET', byUserName);
        assert.equal(none.statusCode, 200, none.body);
        assert.equal(none.headers['content-type'], scimType);
        assert.deepEqual(none.json(), {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
          totalResults: 0,
          startIndex: 1,
          itemsPerPage: 0,
          Resources: [],
        });

        const created = await scim(
          app,
          acme.token,
          'POST',
          '/Users',
          entraUser(userName, '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef'),
        );
        assert.equal(created.statusCode, 201, created.body);
        assert.equal(created.headers['content-type'], scimType);
        const user = created.json<UserBody>();
        assert.match(user.id, /^[0-9a-f-]{36}$/);
        assert.equal(created.headers.location, `${baseUrl}/Users/${user.id}`);
        assert.deepEqual(user, {
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          id: user.id,
          externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
          userName,
          name: { givenName: 'givenName', familyName: 'familyName', formatted: 'givenName familyName' },
          emails: [{ value: userName, type: 'work', primary: true }],
          active: true,
          meta: {
            resourceType: 'User',
            created: user.meta.created,
            lastModified: user.meta.lastModified,
            location: `${baseUrl}/Users/${user.id}`,
            version: 'W/"1"',
          },
        });
        const account = await accountOf(userName.toLowerCase());
        assert.equal(account?.status, 'active');
        assert.equal(account?.passwordHash, null, 'a new account has no password');
        assert.equal(account?.name, 'givenName');
        assert.equal((await membership(acme.companyId, account?.id ?? 0))?.role, 'miembro');

        const read = await scim(app, acme.token, 'GET', `/Users/${user.id}`);
        assert.equal(read.statusCode, 200);
        assert.deepEqual(read.json(), user);

        const found = (await scim(app, acme.token, 'GET', byUserName)).json<ListBody>();
        assert.equal(found.totalResults, 1);
        assert.equal(found.itemsPerPage, 1);
        assert.deepEqual(found.Resources, [user]);
        // Entra also looks people up by their work email's case-insensitive userName.
        const upper = await scim(
          app,
          acme.token,
          'GET',
          `/Users?filter=${encodeURIComponent(`userName eq "${userName.toUpperCase()}"`)}`,
        );
        assert.equal(upper.json<ListBody>().totalResults, 1);

        const disabled = await scim(app, acme.token, 'PATCH', `/Users/${user.id}`, {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
        });
        assert.equal(disabled.statusCode, 200, disabled.body);
        assert.equal(disabled.json<UserBody>().active, false);
        assert.equal(disabled.json<UserBody>().meta.version, 'W/"2"');
        assert.equal(await membership(acme.companyId, account?.id ?? 0), undefined, 'out of the company');

        const replaced = await scim(app, acme.token, 'PATCH', `/Users/${user.id}`, {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [
            { op: 'Replace', value: { displayName: 'Ana Pérez', 'name.familyName': 'Pérez', active: 'True' } },
          ],
        });
        assert.equal(replaced.statusCode, 200, replaced.body);
        const afterReplace = replaced.json<UserBody>();
        assert.equal(afterReplace.displayName, 'Ana Pérez');
        assert.equal(afterReplace.name.familyName, 'Pérez');
        assert.equal(afterReplace.active, true);
        assert.equal((await membership(acme.companyId, account?.id ?? 0))?.status, 'active', 'back in the company');

        const newEmail = `updatedEmail@${acme.domain}`;
        const email = await scim(app, acme.token, 'PATCH', `/Users/${user.id}`, {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [
            { op: 'Add', path: 'emails[type eq "work"].value', value: newEmail },
            { op: 'Replace', path: 'name.givenName', value: 'Ana' },
          ],
        });
        assert.equal(email.statusCode, 200, email.body);
        assert.deepEqual(email.json<UserBody>().emails, [{ value: newEmail, type: 'work', primary: true }]);
        assert.equal(email.json<UserBody>().userName, newEmail);
        assert.equal(email.json<UserBody>().name.givenName, 'Ana');

        const deleted = await scim(app, acme.token, 'DELETE', `/Users/${user.id}`);
        assert.equal(deleted.statusCode, 204);
        assert.equal(deleted.body, '');
        scimError(await scim(app, acme.token, 'GET', `/Users/${user.id}`), 404);
        assert.equal(await membership(acme.companyId, account?.id ?? 0), undefined);
        assert.equal((await accountOf(userName.toLowerCase()))?.status, 'active', 'the account itself stays');
      });
    });

    describe("Okta's documented provisioning sequence", () => {
      it('filters with paging, creates, reads, PUTs inactive, PATCHes active without a path', async () => {
        const acme = await company();
        const userName = `isaac.brock@${acme.domain}`;
        const none = await scim(
          app,
          acme.token,
          'GET',
          `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}&startIndex=1&count=100`,
        );
        assert.equal(none.statusCode, 200, none.body);
        assert.equal(none.json<ListBody>().totalResults, 0);

        const created = await scim(
          app,
          acme.token,
          'POST',
          '/Users',
          {
            schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
            userName,
            name: { givenName: 'Isaac', familyName: 'Brock' },
            emails: [{ primary: true, value: userName, type: 'work' }],
            displayName: 'Isaac Brock',
            locale: 'en-US',
            externalId: '00ujl29u0le5T6Aj10h7',
            groups: [],
            password: '1mz050nq',
            active: true,
          },
          'application/json',
        );
        assert.equal(created.statusCode, 201, created.body);
        const user = created.json<UserBody>();
        assert.equal(user.displayName, 'Isaac Brock');
        assert.equal(user.externalId, '00ujl29u0le5T6Aj10h7');
        const account = await accountOf(userName);
        assert.equal(account?.passwordHash, null, "the directory's password is never kept");

        const read = await scim(app, acme.token, 'GET', `/Users/${user.id}`);
        assert.deepEqual(read.json(), user);

        const put = await scim(app, acme.token, 'PUT', `/Users/${user.id}`, {
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          id: user.id,
          userName,
          name: { givenName: 'Another', familyName: 'User' },
          emails: [{ primary: true, value: userName, type: 'work' }],
          displayName: 'Another User',
          locale: 'en-US',
          externalId: '00ujl29u0le5T6Aj10h7',
          groups: [],
          active: false,
          meta: { resourceType: 'User' },
        });
        assert.equal(put.statusCode, 200, put.body);
        assert.equal(put.json<UserBody>().active, false);
        assert.equal(put.json<UserBody>().name.givenName, 'Another');
        assert.equal(await membership(acme.companyId, account?.id ?? 0), undefined);

        const patched = await scim(app, acme.token, 'PATCH', `/Users/${user.id}`, {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'replace', value: { active: true } }],
        });
        assert.equal(patched.statusCode, 200, patched.body);
        assert.equal(patched.json<UserBody>().active, true);
        assert.equal((await membership(acme.companyId, account?.id ?? 0))?.role, 'miembro');
      });
    });

    describe('edges a directory hits', () => {
      it('"False", "false", "FALSE" and false all deactivate; "True" and true activate; "yes" is refused', async () => {
        const acme = await company();
        const created = await scim(app, acme.token, 'POST', '/Users', entraUser(`flip@${acme.domain}`, 'flip'));
        const { id } = created.json<UserBody>();
        const userId = (await accountOf(`flip@${acme.domain}`))?.id ?? 0;
        const set = (value: unknown, path?: string) =>
          scim(app, acme.token, 'PATCH', `/Users/${id}`, {
            Operations: [path ? { op: 'replace', path, value } : { op: 'replace', value: { active: value } }],
          });
        for (const [off, on] of [
          ['False', 'True'],
          ['false', true],
          ['FALSE', 'true'],
          [false, 'TRUE'],
        ] as const) {
          const down = await set(off, 'active');
          assert.equal(down.statusCode, 200, down.body);
          assert.equal(down.json<UserBody>().active, false, `${JSON.stringify(off)} deactivates`);
          assert.equal(await membership(acme.companyId, userId), undefined);
          const up = await set(on);
          assert.equal(up.json<UserBody>().active, true, `${JSON.stringify(on)} activates`);
          assert.equal((await membership(acme.companyId, userId))?.status, 'active');
        }
        const refused = scimError(await set('yes', 'active'), 400, 'invalidValue');
        assert.match(refused.detail, /active/);
        assert.equal((await scim(app, acme.token, 'GET', `/Users/${id}`)).json<UserBody>().active, true);
      });

      it('filters: the supported ones find, anything else is a 400 invalidFilter', async () => {
        const acme = await company();
        for (const name of ['ana', 'beto', 'carla']) {
          const made = await scim(app, acme.token, 'POST', '/Users', {
            ...entraUser(`${name}@${acme.domain}`, `e-${name}`),
            displayName: name.toUpperCase(),
          });
          assert.equal(made.statusCode, 201, made.body);
        }
        await scim(
          app,
          acme.token,
          'PATCH',
          `/Users/${(await scim(app, acme.token, 'GET', `/Users?filter=${encodeURIComponent('externalId eq "e-carla"')}`)).json<ListBody>().Resources?.[0]?.id}`,
          {
            Operations: [{ op: 'replace', path: 'active', value: 'False' }],
          },
        );
        const names = async (filter: string) => {
          const response = await scim(app, acme.token, 'GET', `/Users?filter=${encodeURIComponent(filter)}`);
          assert.equal(response.statusCode, 200, `${filter}: ${response.body}`);
          return (response.json<ListBody>().Resources ?? []).map((user) => user.userName.split('@')[0]);
        };
        assert.deepEqual(await names(`userName eq "ANA@${acme.domain}"`), ['ana']);
        assert.deepEqual(await names('externalId eq "e-beto"'), ['beto']);
        assert.deepEqual(await names('externalId eq "E-BETO"'), [], 'externalId is case-exact');
        assert.deepEqual(await names(`emails[type eq "work"].value eq "beto@${acme.domain}"`), ['beto']);
        assert.deepEqual(await names(`emails.value eq "carla@${acme.domain}"`), ['carla']);
        assert.deepEqual(await names('userName sw "a"'), ['ana']);
        assert.deepEqual(await names('userName co "ET"'), ['beto']);
        assert.deepEqual(await names(`userName ew "${acme.domain}" and active eq true`), ['ana', 'beto']);
        assert.deepEqual(await names('active eq "False"'), ['carla']);
        assert.deepEqual(await names('(displayName eq "ana" or displayName eq "beto") and externalId pr'), [
          'ana',
          'beto',
        ]);
        assert.deepEqual(await names('userName ne "x"'), ['ana', 'beto', 'carla']);
        assert.deepEqual(await names('userName co "%"'), [], 'LIKE wildcards are literal');
        const [ana] =
          (
            await scim(app, acme.token, 'GET', `/Users?filter=${encodeURIComponent('externalId eq "e-ana"')}`)
          ).json<ListBody>().Resources ?? [];
        assert.deepEqual(await names(`id eq "${ana?.id}"`), ['ana']);
        assert.deepEqual(await names('id eq "not-a-uuid"'), []);

        for (const filter of [
          'title eq "x"',
          'userName gt "a"',
          'not (userName eq "a")',
          'userName eq',
          'userName eq "a" and',
          '(userName eq "a"',
          'userName eq true',
          'userName eq "unterminated',
          'members[value eq "1"] pr',
          'active eq "maybe"',
          'x'.repeat(1001),
        ]) {
          scimError(
            await scim(app, acme.token, 'GET', `/Users?filter=${encodeURIComponent(filter)}`),
            400,
            'invalidFilter',
          );
        }
      });

      it('userName outside the proved domains is a 400 invalidValue and writes nothing; a duplicate is a 409', async () => {
        const acme = await company();
        const before = await app.db.select({ n: count() }).from(users);
        const outside = scimError(
          await scim(app, acme.token, 'POST', '/Users', entraUser('alguien@otra-empresa.cl', 'x1')),
          400,
          'invalidValue',
        );
        assert.match(outside.detail, /otra-empresa\.cl/);
        scimError(await scim(app, acme.token, 'POST', '/Users', entraUser('sin-arroba', 'x2')), 400, 'invalidValue');
        scimError(await scim(app, acme.token, 'POST', '/Users', { externalId: 'x3' }), 400, 'invalidValue');
        assert.deepEqual(await app.db.select({ n: count() }).from(users), before, 'no account made');
        assert.equal(
          (
            await app.db
              .select({ n: count() })
              .from(companyScimUsers)
              .where(eq(companyScimUsers.companyId, acme.companyId))
          )[0]?.n,
          0,
        );

        const first = await scim(app, acme.token, 'POST', '/Users', entraUser(`dup@${acme.domain}`, 'dup-1'));
        assert.equal(first.statusCode, 201);
        const again = scimError(
          await scim(app, acme.token, 'POST', '/Users', entraUser(`DUP@${acme.domain}`, 'dup-2')),
          409,
          'uniqueness',
        );
        assert.match(again.detail, /userName/);
        // The externalId is the directory's (decision 0109): a second person may carry it, and the filter finds both.
        const sameExternal = await scim(app, acme.token, 'POST', '/Users', entraUser(`otro@${acme.domain}`, 'dup-1'));
        assert.equal(sameExternal.statusCode, 201, sameExternal.body);
        const both = await scim(app, acme.token, 'GET', `/Users?filter=${encodeURIComponent('externalId eq "dup-1"')}`);
        assert.deepEqual(
          both
            .json<ListBody>()
            .Resources?.map((user) => user.userName)
            .sort(),
          [`dup@${acme.domain}`, `otro@${acme.domain}`],
        );

        const other = await scim(app, acme.token, 'POST', '/Users', entraUser(`otra@${acme.domain}`, 'dup-3'));
        const renamed = scimError(
          await scim(app, acme.token, 'PATCH', `/Users/${other.json<UserBody>().id}`, {
            Operations: [{ op: 'replace', path: 'userName', value: `dup@${acme.domain}` }],
          }),
          409,
          'uniqueness',
        );
        assert.match(renamed.detail, /userName/);
        const outsideRename = scimError(
          await scim(app, acme.token, 'PATCH', `/Users/${other.json<UserBody>().id}`, {
            Operations: [{ op: 'replace', path: 'userName', value: 'otra@gmail.com' }],
          }),
          400,
          'invalidValue',
        );
        assert.match(outsideRename.detail, /gmail\.com/);
      });

      it('pages with startIndex and count; count 0 gives totalResults only', async () => {
        const acme = await company();
        for (let i = 1; i <= 5; i++) {
          assert.equal(
            (await scim(app, acme.token, 'POST', '/Users', entraUser(`p${i}@${acme.domain}`, `p${i}`))).statusCode,
            201,
          );
        }
        const page = await scim(app, acme.token, 'GET', '/Users?startIndex=2&count=2');
        const body = page.json<ListBody>();
        assert.equal(body.totalResults, 5);
        assert.equal(body.startIndex, 2);
        assert.equal(body.itemsPerPage, 2);
        assert.deepEqual(
          body.Resources?.map((user) => user.userName.split('@')[0]),
          ['p2', 'p3'],
        );
        const last = (await scim(app, acme.token, 'GET', '/Users?startIndex=5&count=10')).json<ListBody>();
        assert.equal(last.itemsPerPage, 1);
        const past = (await scim(app, acme.token, 'GET', '/Users?startIndex=50')).json<ListBody>();
        assert.equal(past.totalResults, 5);
        assert.deepEqual(past.Resources, []);
        assert.deepEqual((await scim(app, acme.token, 'GET', '/Users?count=0')).json(), {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
          totalResults: 5,
          startIndex: 1,
          itemsPerPage: 0,
        });
        assert.equal((await scim(app, acme.token, 'GET', '/Users?count=1000')).json<ListBody>().itemsPerPage, 5);
        scimError(await scim(app, acme.token, 'GET', '/Users?count=muchos'), 400, 'invalidValue');
      });

      it('a userName eq filter adopts a current member at a proved domain; a person outside the company finds nothing', async () => {
        const acme = await company();
        const member = await insertMember(app, acme.companyId, `miembro@${acme.domain}`, 'administrador');
        const found = (
          await scim(
            app,
            acme.token,
            'GET',
            `/Users?filter=${encodeURIComponent(`userName eq "Miembro@${acme.domain}"`)}`,
          )
        ).json<ListBody>();
        assert.equal(found.totalResults, 1);
        assert.equal(found.Resources?.[0]?.userName, `Miembro@${acme.domain}`);
        assert.equal(found.Resources?.[0]?.active, true);
        assert.equal((await membership(acme.companyId, member.id))?.role, 'administrador', 'the role is kept');
        const [adopted] = await app.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'company.member_provision'), eq(auditLog.companyId, acme.companyId)));
        assert.equal((adopted?.details as Json | undefined)?.adoptado, true);

        // Same domain, an account of its own, not in the company: the directory learns nothing of it.
        const other = await insertCompany(app, `Otra ${serial}`);
        await insertMember(app, other, `fuera@${acme.domain}`, 'miembro');
        const outside = (
          await scim(
            app,
            acme.token,
            'GET',
            `/Users?filter=${encodeURIComponent(`userName eq "fuera@${acme.domain}"`)}`,
          )
        ).json<ListBody>();
        assert.equal(outside.totalResults, 0);
        assert.deepEqual(outside.Resources, []);
      });

      it('malformed bodies, unknown paths and groups answer SCIM errors, never a 500', async () => {
        const acme = await company();
        const created = await scim(app, acme.token, 'POST', '/Users', entraUser(`cuerpo@${acme.domain}`, 'c1'));
        const { id } = created.json<UserBody>();
        scimError(await scim(app, acme.token, 'POST', '/Users', '{"userName": '), 400, 'invalidSyntax');
        scimError(await scim(app, acme.token, 'PATCH', `/Users/${id}`, '{nope'), 400, 'invalidSyntax');
        scimError(await scim(app, acme.token, 'POST', '/Users', '[1,2]'), 400, 'invalidSyntax');
        scimError(await scim(app, acme.token, 'POST', '/Users', 'null'), 400, 'invalidSyntax');
        scimError(await scim(app, acme.token, 'POST', '/Users', 'userName=x', 'text/plain'), 415);
        scimError(await scim(app, acme.token, 'POST', '/Users', { userName: 42 }), 400, 'invalidValue');
        scimError(await scim(app, acme.token, 'PATCH', `/Users/${id}`, { Operations: [] }), 400, 'invalidSyntax');
        scimError(
          await scim(app, acme.token, 'PATCH', `/Users/${id}`, {
            Operations: [{ op: 'move', path: 'active', value: true }],
          }),
          400,
          'invalidSyntax',
        );
        scimError(
          await scim(app, acme.token, 'PATCH', `/Users/${id}`, {
            Operations: [{ op: 'replace', path: 'nonsense', value: 1 }],
          }),
          400,
          'invalidPath',
        );
        scimError(
          await scim(app, acme.token, 'PATCH', `/Users/${id}`, { Operations: [{ op: 'remove' }] }),
          400,
          'noTarget',
        );
        scimError(
          await scim(app, acme.token, 'PATCH', `/Users/${id}`, {
            Operations: [{ op: 'replace', path: 'id', value: 'x' }],
          }),
          400,
          'mutability',
        );
        scimError(await scim(app, acme.token, 'GET', '/Users/not-a-uuid'), 404);
        scimError(await scim(app, acme.token, 'GET', '/Users/00000000-0000-4000-8000-000000000000'), 404);
        scimError(await scim(app, acme.token, 'GET', '/Nada'), 404);
        scimError(await scim(app, acme.token, 'GET', '/Groups/not-a-uuid'), 404);
        scimError(await scim(app, acme.token, 'POST', '/Groups', { members: [] }), 400, 'invalidValue');
        scimError(await scim(app, acme.token, 'GET', '/Groups?filter=userName eq "x"'), 400, 'invalidFilter');
        // Attributes the portal does not keep (Entra's default mapping) are accepted and ignored.
        const ignored = await scim(app, acme.token, 'PATCH', `/Users/${id}`, {
          Operations: [
            { op: 'Add', path: 'title', value: 'Geóloga' },
            { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+56 9 1234 5678' },
            {
              op: 'Replace',
              path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
              value: 'Ventas',
            },
            { op: 'Add', path: 'externalId', value: 'c1-nuevo' },
            { op: 'Remove', path: 'displayName' },
          ],
        });
        assert.equal(ignored.statusCode, 200, ignored.body);
        assert.equal(ignored.json<UserBody>().externalId, 'c1-nuevo');
        assert.ok(!ignored.body.includes('Geóloga'));
        // The same body again changes nothing: no new version.
        const same = await scim(app, acme.token, 'PATCH', `/Users/${id}`, {
          Operations: [{ op: 'Add', path: 'externalId', value: 'c1-nuevo' }],
        });
        assert.equal(same.json<UserBody>().meta.version, ignored.json<UserBody>().meta.version);
      });

      it('discovery documents: patch and filter supported, bulk/sort/etag/changePassword not, bearer tokens', async () => {
        const acme = await company();
        const config = await scim(app, acme.token, 'GET', '/ServiceProviderConfig');
        assert.equal(config.statusCode, 200);
        assert.equal(config.headers['content-type'], scimType);
        const body = config.json<Record<string, Json & { supported: boolean }>>();
        assert.equal(body.patch?.supported, true);
        assert.equal(body.filter?.supported, true);
        assert.equal(body.filter?.maxResults, 200);
        for (const name of ['bulk', 'sort', 'etag', 'changePassword']) assert.equal(body[name]?.supported, false);
        assert.equal(
          (config.json<{ authenticationSchemes: Json[] }>().authenticationSchemes[0] as Json).type,
          'oauthbearertoken',
        );
        const types = (await scim(app, acme.token, 'GET', '/ResourceTypes')).json<ListBody>();
        assert.deepEqual(
          types.Resources?.map((type) => type.id),
          ['User', 'Group'],
        );
        assert.equal((await scim(app, acme.token, 'GET', '/ResourceTypes/User')).statusCode, 200);
        const group = await scim(app, acme.token, 'GET', '/ResourceTypes/Group');
        assert.equal(group.json<{ endpoint: string }>().endpoint, '/Groups');
        scimError(await scim(app, acme.token, 'GET', '/ResourceTypes/Role'), 404);
        const schema = await scim(app, acme.token, 'GET', '/Schemas/urn:ietf:params:scim:schemas:core:2.0:User');
        assert.equal(schema.statusCode, 200);
        assert.ok(!schema.body.includes(acme.domain), 'no company data');
        assert.equal((await scim(app, acme.token, 'GET', '/Schemas')).json<ListBody>().totalResults, 2);
        const groupSchema = await scim(app, acme.token, 'GET', '/Schemas/urn:ietf:params:scim:schemas:core:2.0:Group');
        assert.equal(groupSchema.statusCode, 200);
        assert.equal(
          (await scim(app, undefined, 'GET', '/ServiceProviderConfig')).statusCode,
          200,
          'readable without a token',
        );
      });

      it('the last owner cannot be deprovisioned: 409, nothing changed', async () => {
        const acme = await company();
        const found = (
          await scim(app, acme.token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${acme.owner.email}"`)}`)
        ).json<ListBody>();
        const owner = found.Resources?.[0];
        assert.ok(owner, 'the owner is adopted');
        const tokenVersion = (await accountOf(acme.owner.email))?.tokenVersion;
        const refused = scimError(
          await scim(app, acme.token, 'PATCH', `/Users/${owner.id}`, {
            Operations: [
              { op: 'replace', path: 'displayName', value: 'Dueña' },
              { op: 'replace', path: 'active', value: 'False' },
            ],
          }),
          409,
        );
        assert.match(refused.detail, /último propietario/);
        scimError(await scim(app, acme.token, 'DELETE', `/Users/${owner.id}`), 409);
        assert.equal((await membership(acme.companyId, acme.owner.id))?.role, 'propietario');
        assert.equal((await accountOf(acme.owner.email))?.tokenVersion, tokenVersion, 'sessions untouched');
        const still = (await scim(app, acme.token, 'GET', `/Users/${owner.id}`)).json<UserBody>();
        assert.equal(still.active, true);
        assert.equal(still.displayName, undefined);

        // With a second owner, the first may go.
        const second = await insertMember(app, acme.companyId, `segunda@${acme.domain}`, 'propietario');
        assert.ok(second.id);
        const now = await scim(app, acme.token, 'PATCH', `/Users/${owner.id}`, {
          Operations: [{ op: 'replace', path: 'active', value: false }],
        });
        assert.equal(now.statusCode, 200, now.body);
        assert.equal(await membership(acme.companyId, acme.owner.id), undefined);
      });

      it("a suspended company's token gets 403", async () => {
        const acme = await company();
        const suspended = await app.inject({
          method: 'PATCH',
          url: `/admin/empresas/${acme.companyId}`,
          headers: { authorization: `Bearer ${admin}` },
          payload: { estado: 'suspendida' },
        });
        assert.equal(suspended.statusCode, 200, suspended.body);
        scimError(await scim(app, acme.token, 'GET', '/Users'), 403);
      });
    });

    describe('deprovisioning', () => {
      it('takes the person out of this company only: seats freed, sessions ended, audited; their own plans and other companies stay', async () => {
        const acme = await company(3);
        const userName = `dora@${acme.domain}`;
        const created = await scim(app, acme.token, 'POST', '/Users', entraUser(userName, 'dora'));
        const { id } = created.json<UserBody>();
        const account = await accountOf(userName);
        assert.ok(account);
        // A seat here, a personal plan of another app, and a membership of another company.
        await app.db.insert(companySeats).values({ companyId: acme.companyId, userId: account.id, appId: 1 });
        assert.equal(await seatsInUse(acme.companyId), 1);
        await app.db
          .insert(userPlans)
          .values({ userId: account.id, appId: 2, planId: await planOf(app, 2) })
          .onConflictDoNothing();
        const elsewhere = await insertCompany(app, `Consultora ${serial}`);
        await addMember(app.db, elsewhere, account.id, 'administrador');
        const session = await sessionToken(app, account);
        assert.equal(
          (await app.inject({ method: 'GET', url: '/auth/user', headers: { authorization: `Bearer ${session}` } }))
            .statusCode,
          200,
        );

        const off = await scim(app, acme.token, 'PATCH', `/Users/${id}`, {
          Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
        });
        assert.equal(off.statusCode, 200, off.body);
        assert.equal(await membership(acme.companyId, account.id), undefined);
        assert.equal(await seatsInUse(acme.companyId), 0, 'the seat is free again');
        assert.equal((await app.db.select().from(companySeats).where(eq(companySeats.userId, account.id))).length, 0);
        assert.equal((await membership(elsewhere, account.id))?.role, 'administrador', 'the other company keeps them');
        const plans = await app.db
          .select()
          .from(userPlans)
          .where(and(eq(userPlans.userId, account.id), eq(userPlans.appId, 2)));
        assert.equal(plans.length, 1, 'the personal plan stays');
        const after = await accountOf(userName);
        assert.equal(after?.status, 'active', 'the account stays active');
        assert.equal(after?.tokenVersion, account.tokenVersion + 1);
        assert.equal(
          (await app.inject({ method: 'GET', url: '/auth/user', headers: { authorization: `Bearer ${session}` } }))
            .statusCode,
          401,
          'the portal session ended',
        );
        const [entry] = await app.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'company.member_deprovision'), eq(auditLog.companyId, acme.companyId)));
        assert.equal(entry?.actorEmail, 'directorio (SCIM)');
        assert.equal(entry?.actorId, null);
        assert.deepEqual(
          { ...(entry?.details as Json) },
          { fuente: 'scim', userName, userId: account.id, cambios: ['active'], role: 'miembro', seats: [1] },
        );
        const provisions = await app.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'company.member_provision'), eq(auditLog.companyId, acme.companyId)));
        assert.equal((provisions[0]?.details as Json | undefined)?.fuente, 'scim');

        // Active again: back as miembro, no seat restored.
        const on = await scim(app, acme.token, 'PATCH', `/Users/${id}`, {
          Operations: [{ op: 'replace', path: 'active', value: true }],
        });
        assert.equal(on.statusCode, 200);
        assert.equal((await membership(acme.companyId, account.id))?.role, 'miembro');
        assert.equal(await seatsInUse(acme.companyId), 0);
        const [update] = await app.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'company.member_update'), eq(auditLog.companyId, acme.companyId)));
        assert.equal((update?.details as Json | undefined)?.fuente, 'scim');
      });

      it("a userName with its domain's final dot is the existing account of that address, not a second one", async () => {
        const acme = await company();
        const existing = await insertMember(app, acme.companyId, `rita@${acme.domain}`, 'administrador');
        const created = await scim(app, acme.token, 'POST', '/Users', entraUser(`${existing.email}.`, 'rita'));
        assert.equal(created.statusCode, 201, created.body);
        assert.equal(await accountOf(`${existing.email}.`), undefined);
        const [row] = await app.db
          .select()
          .from(companyScimUsers)
          .where(eq(companyScimUsers.companyId, acme.companyId));
        assert.equal(row?.userId, existing.id);
        assert.equal((await membership(acme.companyId, existing.id))?.role, 'administrador');
      });

      it('POST of an existing account keeps its password and its role; POST inactive gives no membership', async () => {
        const acme = await company();
        const existing = await insertMember(app, acme.companyId, `jefa@${acme.domain}`, 'administrador');
        const before = await accountOf(existing.email);
        const created = await scim(app, acme.token, 'POST', '/Users', entraUser(existing.email, 'jefa'));
        assert.equal(created.statusCode, 201, created.body);
        const after = await accountOf(existing.email);
        assert.equal(after?.passwordHash, before?.passwordHash);
        assert.equal((await membership(acme.companyId, existing.id))?.role, 'administrador');

        const inactive = await scim(app, acme.token, 'POST', '/Users', {
          ...entraUser(`pausa@${acme.domain}`, 'pausa'),
          active: 'False',
        });
        assert.equal(inactive.statusCode, 201, inactive.body);
        assert.equal(inactive.json<UserBody>().active, false);
        const paused = await accountOf(`pausa@${acme.domain}`);
        assert.equal(await membership(acme.companyId, paused?.id ?? 0), undefined);
      });
    });

    describe('request log', () => {
      it('shows the requests in Spanish, newest first, to administrators; keeps the last 1000', async () => {
        const acme = await company();
        const created = await scim(app, acme.token, 'POST', '/Users', entraUser(`log@${acme.domain}`, 'log'));
        const { id } = created.json<UserBody>();
        await scim(app, acme.token, 'PATCH', `/Users/${id}`, {
          Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
        });
        await scim(app, acme.token, 'POST', '/Users', entraUser('x@fuera.cl', 'fuera'));
        await scim(app, acme.token, 'GET', `/Users?filter=${encodeURIComponent('title eq "x"')}`);
        await scim(app, 'scim_not-a-token', 'GET', '/Users');

        const manager = await insertMember(app, acme.companyId, `registro@${acme.domain}`, 'administrador');
        const log = await app.inject({
          method: 'GET',
          url: `/empresas/${acme.companyId}/scim/registro?limit=10`,
          headers: { authorization: `Bearer ${await manager.token()}` },
        });
        assert.equal(log.statusCode, 200, log.body);
        const rows = log.json<{ data: Json[] }>().data;
        assert.deepEqual(
          rows.map((row) => [row.metodo, row.estado, row.usuario]),
          [
            ['GET', 400, null],
            ['POST', 400, 'x@fuera.cl'],
            ['PATCH', 200, `log@${acme.domain}`],
            ['POST', 201, `log@${acme.domain}`],
          ],
        );
        assert.match(String(rows[0]?.detalle), /no admite el atributo/);
        assert.match(String(rows[0]?.ruta), /^\/scim\/v2\/Users\?filter=/);
        assert.match(String(rows[1]?.detalle), /fuera\.cl no es uno de los dominios probados/);
        assert.match(String(rows[2]?.detalle), /desactivada: sale de la empresa/);
        assert.match(String(rows[3]?.detalle), /Alta de/);
        assert.deepEqual(Object.keys(rows[0] ?? {}).sort(), [
          'detalle',
          'estado',
          'fecha',
          'id',
          'metodo',
          'ruta',
          'usuario',
        ]);

        const member = await insertMember(app, acme.companyId, `miembro-log@${acme.domain}`, 'miembro');
        const refused = await app.inject({
          method: 'GET',
          url: `/empresas/${acme.companyId}/scim/registro`,
          headers: { authorization: `Bearer ${await member.token()}` },
        });
        assert.equal(refused.statusCode, 403);

        // 1200 old rows: the next request leaves the last 1000.
        await app.db.insert(companyScimRequests).values(
          Array.from({ length: 1200 }, (_, i) => ({
            companyId: acme.companyId,
            method: 'GET',
            path: `/scim/v2/Users?viejo=${i}`,
            status: 200,
          })),
        );
        await scim(app, acme.token, 'GET', '/Users?count=0');
        const newest = (
          await app.inject({
            method: 'GET',
            url: `/empresas/${acme.companyId}/scim/registro?limit=1`,
            headers: { authorization: `Bearer ${await manager.token()}` },
          })
        ).json<{ data: Json[] }>().data;
        assert.equal(newest[0]?.ruta, '/scim/v2/Users?count=0');
        const [kept] = await app.db
          .select({ n: count() })
          .from(companyScimRequests)
          .where(eq(companyScimRequests.companyId, acme.companyId));
        assert.equal(kept?.n, 1000);
      });
    });
  });
});
