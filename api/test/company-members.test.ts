// A company's members as its owners and administrators manage them: the cursor-paged list with its email filter,
// role changes (at least one owner always, also when two owners demote each other at once), removal with the seats
// going back, approval of a domain join, and the company's own audit log. On each backend.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { auditLog, companyLicences, companyMembers, companySeats, totpFactors } from '../src/db/schema.js';
import { operatorActor, recordAudit, systemActor } from '../src/domain/audit/log.js';
import { buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';
import { call, insertCompany, insertLicence, insertMember } from './helpers/company-fixtures.js';

interface Member {
  idUsuario: number;
  email: string;
  rol: string;
  estado: string;
  segundoFactor: boolean;
  puestos: number[];
  desde: string;
}
interface MemberPage {
  data: Member[];
  total: number;
  totalLimitado: boolean;
  siguiente: string | null;
}

forEachBackend((backend) => {
  let t: TestApp;
  let admin: string;
  before(async () => {
    t = await buildTestApp(backend);
    admin = await login(t.app);
  });
  after(() => t.close());

  const get = (url: string, token: string) => call(t.app, 'GET', url, token);
  const membersOf = async (companyId: number) =>
    t.app.db
      .select()
      .from(companyMembers)
      .where(eq(companyMembers.companyId, companyId))
      .orderBy(companyMembers.userId);

  let companies = 0;
  /** A company with an owner, an administrator, three members and one waiting for approval. */
  const company = async () => {
    const tag = `${backend}-${++companies}`;
    const id = await insertCompany(t.app, `Minera ${tag} S.A.`);
    const owner = await insertMember(t.app, id, `duena-${tag}@minera.test`, 'propietario');
    const manager = await insertMember(t.app, id, `jefe-${tag}@minera.test`, 'administrador');
    const members = [];
    for (const name of ['ana', 'BETO', 'carla']) {
      members.push(await insertMember(t.app, id, `${name.toLowerCase()}-${tag}@minera.test`, 'miembro'));
    }
    const waiting = await insertMember(t.app, id, `espera-${tag}@minera.test`, 'miembro', 'pending_approval');
    return { id, tag, owner, manager, members, waiting };
  };

  describe('the list', () => {
    it('pages through every member by cursor, in one order, with the total', async () => {
      const c = await company();
      const token = await c.manager.token();
      const seen: Member[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const response = await get(`/empresas/${c.id}/miembros?limit=2${cursor ? `&cursor=${cursor}` : ''}`, token);
        assert.equal(response.statusCode, 200, response.body);
        const page = response.json<MemberPage>();
        assert.equal(page.total, 6);
        assert.equal(page.totalLimitado, false);
        seen.push(...page.data);
        cursor = page.siguiente;
        pages++;
      } while (cursor);
      assert.equal(pages, 3);
      const ids = seen.map((member) => member.idUsuario);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
        'ordered by user id',
      );
      assert.deepEqual(
        ids,
        (await membersOf(c.id)).map((row) => row.userId),
      );
      const owner = seen.find((member) => member.idUsuario === c.owner.id)!;
      assert.equal(owner.rol, 'propietario');
      assert.equal(owner.estado, 'activo');
      assert.equal(owner.segundoFactor, false);
      assert.deepEqual(owner.puestos, []);
      assert.ok(!Number.isNaN(Date.parse(owner.desde)));
      assert.equal(seen.find((member) => member.idUsuario === c.waiting.id)!.estado, 'pendiente');
      // The company's page counts the same people: five active, one waiting, six in the list.
      const detail = (await get(`/empresas/${c.id}`, token)).json<{ miembros: number; pendientes: number }>();
      assert.deepEqual([detail.miembros, detail.pendientes], [5, 1]);
    });

    it('filters by part of the email, whatever its case; % and _ are plain characters', async () => {
      const c = await company();
      const token = await c.owner.token();
      const filtered = (await get(`/empresas/${c.id}/miembros?email=BeTo-${c.tag}`, token)).json<MemberPage>();
      assert.deepEqual(
        filtered.data.map((member) => member.email),
        [`beto-${c.tag}@minera.test`],
      );
      assert.equal(filtered.total, 1);
      const domain = (await get(`/empresas/${c.id}/miembros?email=${c.tag}@MINERA&limit=4`, token)).json<MemberPage>();
      assert.equal(domain.data.length, 4);
      assert.equal(domain.total, 6);
      assert.ok(domain.siguiente);
      const rest = (
        await get(`/empresas/${c.id}/miembros?email=${c.tag}@MINERA&limit=4&cursor=${domain.siguiente}`, token)
      ).json<MemberPage>();
      assert.equal(rest.data.length, 2);
      assert.equal(rest.total, 6);
      assert.equal(rest.siguiente, null);
      for (const fragment of ['%', '_', '%25']) {
        const none = await get(`/empresas/${c.id}/miembros?email=${encodeURIComponent(fragment)}`, token);
        assert.equal(none.statusCode, 200);
        assert.equal(none.json<MemberPage>().total, 0, fragment);
      }
    });

    it('shows seats and a second factor', async () => {
      const c = await company();
      await insertLicence(t.app, c.id, 1, 5);
      const [ana] = c.members;
      await t.app.db.insert(companySeats).values({ companyId: c.id, appId: 1, userId: ana!.id });
      await t.app.db.insert(totpFactors).values({ userId: ana!.id, secret: 'secreto', confirmedAt: new Date() });
      const token = await c.owner.token();
      const page = (await get(`/empresas/${c.id}/miembros?email=ana-${c.tag}`, token)).json<MemberPage>();
      assert.deepEqual(page.data[0]!.puestos, [1]);
      assert.equal(page.data[0]!.segundoFactor, true);
    });

    it('refuses a bad cursor or limit in Spanish (400)', async () => {
      const c = await company();
      const token = await c.owner.token();
      for (const query of [
        'cursor=zzz',
        `cursor=${Buffer.from('[0]').toString('base64url')}`,
        'limit=0',
        'limit=101',
        'otro=1',
      ]) {
        const response = await get(`/empresas/${c.id}/miembros?${query}`, token);
        assert.equal(response.statusCode, 400, query);
        assert.match(response.json().message, /[áéíóúñ]|no es válido|debe|Datos/i, query);
      }
    });

    it('is for the company’s owners and administrators: a member gets 403, another company’s administrator too', async () => {
      const c = await company();
      const other = await company();
      assert.equal((await get(`/empresas/${c.id}/miembros`, await c.members[0]!.token())).statusCode, 403);
      assert.equal((await get(`/empresas/${c.id}/miembros`, await other.manager.token())).statusCode, 403);
      assert.equal((await get(`/empresas/${c.id}/miembros`, admin)).statusCode, 200, 'a platform administrator');
    });
  });

  describe('roles', () => {
    const patch = (companyId: number, userId: number, token: string, rol: unknown) =>
      call(t.app, 'PATCH', `/empresas/${companyId}/miembros/${userId}`, token, { rol });

    it('an administrator changes a member’s role, but neither grants nor takes away propietario', async () => {
      const c = await company();
      const token = await c.manager.token();
      const [ana] = c.members;
      const promoted = await patch(c.id, ana!.id, token, 'administrador');
      assert.equal(promoted.statusCode, 200, promoted.body);
      assert.equal(promoted.json<Member>().rol, 'administrador');
      const before = await membersOf(c.id);
      for (const [target, rol] of [
        [ana!.id, 'propietario'],
        [c.owner.id, 'miembro'],
      ] as const) {
        const refused = await patch(c.id, target, token, rol);
        assert.equal(refused.statusCode, 403);
        assert.equal(refused.json().code, 'SOLO_PROPIETARIO');
        assert.equal(
          refused.json().message,
          'Solo un propietario de la empresa puede dar o quitar el rol de propietario',
        );
      }
      assert.deepEqual(await membersOf(c.id), before, 'nothing changed');
    });

    it('the last owner is neither demoted nor removed (409 ULTIMO_PROPIETARIO); with a second owner, it may go', async () => {
      const c = await company();
      const token = await c.owner.token();
      const demoted = await patch(c.id, c.owner.id, token, 'administrador');
      assert.equal(demoted.statusCode, 409);
      assert.equal(demoted.json().code, 'ULTIMO_PROPIETARIO');
      assert.match(demoted.json().message, /al menos un propietario/);
      const removed = await call(t.app, 'DELETE', `/empresas/${c.id}/miembros/${c.owner.id}`, admin);
      assert.equal(removed.statusCode, 409, 'not even by a platform administrator');
      assert.equal((await patch(c.id, c.manager.id, token, 'propietario')).statusCode, 200);
      const stepsDown = await patch(c.id, c.owner.id, token, 'miembro');
      assert.equal(stepsDown.statusCode, 200, stepsDown.body);
      assert.equal(stepsDown.json<Member>().rol, 'miembro');
    });

    it('two owners demoting each other at once leave one owner', async () => {
      const c = await company();
      await patch(c.id, c.manager.id, await c.owner.token(), 'propietario');
      const [first, second] = await Promise.all([
        patch(c.id, c.manager.id, await c.owner.token(), 'miembro'),
        patch(c.id, c.owner.id, await c.manager.token(), 'miembro'),
      ]);
      // The one that waited for the lock is refused as the last owner (409) or, when it came after the other was
      // done, as no longer an owner (403): never both demoted.
      const statuses = [first.statusCode, second.statusCode].sort();
      assert.equal(statuses[0], 200, `${first.body} ${second.body}`);
      assert.ok([403, 409].includes(statuses[1]!), `${first.body} ${second.body}`);
      const owners = (await membersOf(c.id)).filter((member) => member.role === 'propietario');
      assert.equal(owners.length, 1);
    });

    it('refuses a bad role or id in Spanish (400) and an unknown member (404), changing nothing', async () => {
      const c = await company();
      const token = await c.owner.token();
      const before = await membersOf(c.id);
      for (const rol of ['jefe', '', null, 1, 'PROPIETARIO']) {
        const response = await patch(c.id, c.members[0]!.id, token, rol);
        assert.equal(response.statusCode, 400, String(rol));
        assert.ok(response.json().message.length > 0);
      }
      const extra = await call(t.app, 'PATCH', `/empresas/${c.id}/miembros/${c.members[0]!.id}`, token, {
        rol: 'miembro',
        empresa: 2,
      });
      assert.equal(extra.statusCode, 400);
      assert.equal((await patch(c.id, 0, token, 'miembro')).statusCode, 400);
      const unknown = await patch(c.id, 2_000_000_000, token, 'miembro');
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.json().code, 'MIEMBRO_NO_ENCONTRADO');
      assert.equal(unknown.json().message, 'Esa persona no es miembro de la empresa');
      assert.deepEqual(await membersOf(c.id), before);
    });
  });

  describe('removal and approval', () => {
    it('a removed member’s seats go back to the licences; removing again is 404', async () => {
      const c = await company();
      await insertLicence(t.app, c.id, 1, 3);
      await insertLicence(t.app, c.id, 2, 3);
      const [ana] = c.members;
      const token = await c.manager.token();
      for (const idApp of [1, 2]) {
        const seat = await call(t.app, 'POST', `/empresas/${c.id}/puestos`, token, { idUsuario: ana!.id, idApp });
        assert.equal(seat.statusCode, 201, seat.body);
      }
      const removed = await call(t.app, 'DELETE', `/empresas/${c.id}/miembros/${ana!.id}`, token);
      assert.equal(removed.statusCode, 204, removed.body);
      const licences = await t.app.db
        .select({ inUse: companyLicences.seatsInUse })
        .from(companyLicences)
        .where(eq(companyLicences.companyId, c.id));
      assert.deepEqual(
        licences.map((row) => row.inUse),
        [0, 0],
      );
      assert.equal((await t.app.db.select().from(companySeats).where(eq(companySeats.companyId, c.id))).length, 0);
      const listed = (await get(`/empresas/${c.id}/miembros`, token)).json<MemberPage>();
      assert.equal(listed.total, 5, 'the count the database keeps went down');
      assert.ok(!listed.data.some((member) => member.idUsuario === ana!.id));
      const again = await call(t.app, 'DELETE', `/empresas/${c.id}/miembros/${ana!.id}`, token);
      assert.equal(again.statusCode, 404);
      assert.equal(again.json().code, 'MIEMBRO_NO_ENCONTRADO');
      const entry = await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.companyId, c.id), eq(auditLog.action, 'company.member_remove')));
      assert.equal(entry.length, 1);
      assert.deepEqual(entry[0]!.details, { userId: ana!.id, email: ana!.email, role: 'miembro', seats: [1, 2] });
    });

    it('an administrator cannot remove an owner (403)', async () => {
      const c = await company();
      const response = await call(t.app, 'DELETE', `/empresas/${c.id}/miembros/${c.owner.id}`, await c.manager.token());
      assert.equal(response.statusCode, 403);
      assert.equal(response.json().code, 'SOLO_PROPIETARIO');
    });

    it('approves a person waiting after a domain join; once, then 409', async () => {
      const c = await company();
      const token = await c.manager.token();
      const url = `/empresas/${c.id}/miembros/${c.waiting.id}/aprobar`;
      const approved = await call(t.app, 'POST', url, token);
      assert.equal(approved.statusCode, 200, approved.body);
      assert.equal(approved.json<Member>().estado, 'activo');
      const again = await call(t.app, 'POST', url, token);
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().code, 'MIEMBRO_NO_PENDIENTE');
    });
  });

  describe('the company’s audit log', () => {
    it('lists what was done to this company, by whom, and nothing of another', async () => {
      const c = await company();
      const other = await company();
      await call(t.app, 'PATCH', `/empresas/${c.id}/miembros/${c.members[0]!.id}`, await c.manager.token(), {
        rol: 'administrador',
      });
      await call(
        t.app,
        'POST',
        `/empresas/${other.id}/miembros/${other.waiting.id}/aprobar`,
        await other.owner.token(),
      );
      const response = await get(`/empresas/${c.id}/auditoria`, await c.owner.token());
      assert.equal(response.statusCode, 200, response.body);
      const page = response.json<{
        data: Array<{ action: string; actorEmail: string; details: unknown }>;
        total: number;
      }>();
      assert.equal(page.total, 1);
      assert.equal(page.data[0]!.action, 'company.member_role_change');
      assert.equal(page.data[0]!.actorEmail, c.manager.email);
      assert.deepEqual(page.data[0]!.details, {
        userId: c.members[0]!.id,
        email: c.members[0]!.email,
        from: 'miembro',
        to: 'administrador',
      });
      assert.equal((await get(`/empresas/${c.id}/auditoria`, await other.owner.token())).statusCode, 403);
      assert.equal((await get(`/empresas/${c.id}/auditoria?action=user.verify`, admin)).statusCode, 400);
    });

    it("says where each change came from: the company's administrators, the platform, the person, the console", async () => {
      const c = await company();
      await call(t.app, 'PATCH', `/empresas/${c.id}/miembros/${c.members[0]!.id}`, await c.manager.token(), {
        rol: 'administrador',
      });
      await call(t.app, 'PATCH', `/empresas/${c.id}/miembros/${c.members[1]!.id}`, admin, { rol: 'administrador' });
      // The person's own doing (a join by domain, an accepted invitation), the operator's command and the portal by
      // itself (neither has an account).
      const person = c.members[2]!;
      for (const actor of [{ user: { id: person.id, email: person.email } }, operatorActor, systemActor])
        await recordAudit(t.app.db, actor, [
          {
            action: 'company.invitation_accept',
            target: { type: 'user', id: person.id },
            companyId: c.id,
            details: { userId: person.id, email: person.email },
          },
        ]);
      const page = (await get(`/empresas/${c.id}/auditoria`, await c.owner.token())).json<{
        data: Array<{ actorEmail: string; origen: string }>;
      }>();
      assert.deepEqual(
        page.data.map((entry) => [entry.actorEmail, entry.origen]),
        [
          ['sistema', 'sistema'],
          ['operador (CLI)', 'consola'],
          [person.email, 'persona'],
          ['admin@portal.test', 'plataforma'],
          [c.manager.email, 'administrador'],
        ],
      );
      // The platform's own log has no such column.
      const platform = (await get('/admin/auditoria?limit=5', admin)).json<{ data: Array<Record<string, unknown>> }>();
      assert.ok(platform.data.every((entry) => !('origen' in entry)));
    });
  });
});
