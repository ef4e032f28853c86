// The directory tokens each instance keeps in memory (domain/companies/scim/token-memory.ts, decision 0114): a sync's
// requests do not read the token each time, yet a revoked token is refused on the very next request on the instance
// that revoked it, and on another instance before that instance's memory could have let it go by itself
// (helpers/session-memory.ts), whichever way it was revoked; a company suspended as well.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { tokenMemoryOf } from '../src/domain/companies/scim/token-memory.js';
import { forEachBackend, login } from './helpers/app.js';
import { type TwoInstances, twoInstances } from './helpers/instances.js';
import { waitFor } from './helpers/processes.js';
import { scim, scimCompany, scimError } from './helpers/scim-fixtures.js';
import { watchTokenMemory } from './helpers/session-memory.js';

forEachBackend((backend) => {
  describe('SCIM tokens kept in memory', () => {
    let pair: TwoInstances;
    let admin: string;
    before(async () => {
      pair = await twoInstances(backend);
      admin = await login(pair.a);
    });
    after(() => pair.close());

    const users = (app: TwoInstances['a'], token: string) => scim(app, token, 'GET', '/Users?count=1');

    it('a token used on both instances is kept, and revoked on one it is refused there at once and on the other before its memory lets it go', async () => {
      const acme = await scimCompany(pair.a, admin, 'Minera Memoria S.A.', 'minera-memoria.pe');
      const memoryOfA = tokenMemoryOf(pair.a.sessionState);
      const onB = watchTokenMemory(pair.b);
      assert.equal((await users(pair.a, acme.token)).statusCode, 200);
      assert.equal((await users(pair.b, acme.token)).statusCode, 200);
      const hits = memoryOfA.stats.hits;
      assert.equal((await users(pair.a, acme.token)).statusCode, 200);
      assert.equal(memoryOfA.stats.hits, hits + 1, 'the second request was let in from memory');

      const [token] = (
        await pair.a.inject({
          method: 'GET',
          url: `/empresas/${acme.companyId}/scim/tokens`,
          headers: { authorization: `Bearer ${await acme.owner.token()}` },
        })
      ).json<{ data: { id: number }[] }>().data;
      const revoked = await pair.a.inject({
        method: 'DELETE',
        url: `/empresas/${acme.companyId}/scim/tokens/${token!.id}`,
        headers: { authorization: `Bearer ${await acme.owner.token()}` },
      });
      assert.equal(revoked.statusCode, 204, revoked.body);
      scimError(await users(pair.a, acme.token), 401);
      await onB.seen(
        'the revoked token refused on the other instance',
        async () => (await users(pair.b, acme.token)).statusCode === 401,
      );
      scimError(await users(pair.b, acme.token), 401);
      scimError(await users(pair.a, acme.token), 401);
    });

    it('revoked by hand in the database, or its company suspended, it is refused on both instances before their memories let it go', async () => {
      const acme = await scimCompany(pair.a, admin, 'Minera Mano S.A.', 'minera-mano.pe');
      const other = await scimCompany(pair.a, admin, 'Minera Suspendida S.A.', 'minera-suspendida.pe');
      const watched = [watchTokenMemory(pair.a), watchTokenMemory(pair.b)];
      for (const app of [pair.a, pair.b, pair.a, pair.b]) {
        assert.equal((await users(app, acme.token)).statusCode, 200);
        assert.equal((await users(app, other.token)).statusCode, 200);
      }
      await pair.a.db.execute(
        sql`update company_scim_tokens set revoked_at = now() where company_id = ${acme.companyId}`,
      );
      await pair.a.db.execute(sql`update companies set status = 'suspended' where id = ${other.companyId}`);
      for (const [index, app] of [pair.a, pair.b].entries()) {
        await watched[index]!.seen(
          'the revoked token and the suspended company refused',
          async () =>
            (await users(app, acme.token)).statusCode === 401 && (await users(app, other.token)).statusCode === 403,
        );
      }
    });

    it('a token read while it was being revoked is not kept', async () => {
      const acme = await scimCompany(pair.a, admin, 'Minera Carrera S.A.', 'minera-carrera.pe');
      const memory = tokenMemoryOf(pair.b.sessionState);
      // A read that began before the revocation's notification arrived: its answer is not kept.
      const ticket = memory.ticket();
      await pair.a.db.execute(
        sql`update company_scim_tokens set revoked_at = now() where company_id = ${acme.companyId}`,
      );
      await waitFor('the notification to reach the other instance', () => memory.ticket() !== ticket, 20_000, 20);
      memory.store(ticket, 'stale', { companyId: acme.companyId, tokenId: 0, companyStatus: 'active', lastUsedAt: 0 });
      assert.equal(memory.get('stale'), undefined);
      scimError(await users(pair.b, acme.token), 401);
    });
  });
});
