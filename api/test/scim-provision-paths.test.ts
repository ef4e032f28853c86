// POST /Users takes one of two paths: a brand-new or active account is provisioned by one statement on its own, and
// anything else (an account still waiting for its email to be verified, a domain the company has not proved, a userName
// taken) in a transaction. What the directory and the person see must not depend on the path.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { companyMembers, companyScimUsers, users } from '../src/db/schema.js';
import { buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';
import { entraUser, scim, scimCompany, scimError } from './helpers/scim-fixtures.js';

forEachBackend((backend) => {
  describe('SCIM POST /Users, one statement or a transaction', () => {
    let t: TestApp;
    before(async () => {
      t = await buildTestApp(backend, { apiPublicUrl: 'http://localhost:3000' });
    });
    after(() => t.close());

    it('an account still waiting for its email is activated with the directory’s name; a new one is made active', async () => {
      const { app } = t;
      const admin = await login(app);
      const acme = await scimCompany(app, admin, 'Minera Caminos S.A.', 'minera-caminos.pe');
      const [waiting] = await app.db
        .insert(users)
        .values({ email: 'rosa.quispe@minera-caminos.pe', name: 'rq', lastName: '', status: 'pending_verification' })
        .returning({ id: users.id });

      const adopted = await scim(app, acme.token, 'POST', '/Users', entraUser('Rosa.Quispe@minera-caminos.pe', 'e-1'));
      assert.equal(adopted.statusCode, 201, adopted.body);
      const created = await scim(app, acme.token, 'POST', '/Users', entraUser('luis.huaman@minera-caminos.pe', 'e-2'));
      assert.equal(created.statusCode, 201, created.body);

      for (const [email, id] of [
        ['rosa.quispe@minera-caminos.pe', waiting!.id],
        ['luis.huaman@minera-caminos.pe', undefined],
      ] as const) {
        const [account] = await app.db
          .select({ id: users.id, status: users.status, name: users.name })
          .from(users)
          .where(eq(users.email, email));
        assert.equal(account?.status, 'active', `${email} is active`);
        if (id !== undefined) assert.equal(account?.id, id, 'the waiting account is the one provisioned');
        const [member] = await app.db
          .select({ status: companyMembers.status, role: companyMembers.role })
          .from(companyMembers)
          .where(and(eq(companyMembers.companyId, acme.companyId), eq(companyMembers.userId, account!.id)));
        assert.deepEqual(member, { status: 'active', role: 'miembro' });
      }
      const [rosa] = await app.db.select({ name: users.name }).from(users).where(eq(users.id, waiting!.id));
      assert.notEqual(rosa?.name, 'rq', 'the name typed at registration gives way to the directory’s');
    });

    it('a userName taken, in any case, is a 409 and a domain not proved a 400, with nothing written', async () => {
      const { app } = t;
      const admin = await login(app);
      const acme = await scimCompany(app, admin, 'Minera Repetida S.A.', 'minera-repetida.pe');
      const first = await scim(app, acme.token, 'POST', '/Users', entraUser('ana@minera-repetida.pe', 'a-1'));
      assert.equal(first.statusCode, 201, first.body);
      scimError(
        await scim(app, acme.token, 'POST', '/Users', entraUser('ANA@minera-repetida.pe', 'a-2')),
        409,
        'uniqueness',
      );
      scimError(
        await scim(app, acme.token, 'POST', '/Users', entraUser('ana@otra-mina.pe', 'a-3')),
        400,
        'invalidValue',
      );
      const resources = await app.db
        .select({ id: companyScimUsers.id })
        .from(companyScimUsers)
        .where(eq(companyScimUsers.companyId, acme.companyId));
      assert.equal(resources.length, 1);
      const [stranger] = await app.db.select({ id: users.id }).from(users).where(eq(users.email, 'ana@otra-mina.pe'));
      assert.equal(stranger, undefined, 'no account made for a domain the company has not proved');
    });
  });
});
