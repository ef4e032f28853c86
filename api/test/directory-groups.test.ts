// Directory groups decide seats and roles: SCIM Groups as Microsoft Entra ID and Okta send them, the company's rules
// (`/empresas/:id/grupos-directorio`), seats that follow the groups (given, taken back as an administrator takes
// them, kept when given by hand), a group larger than its licence (the rest wait in join order, `esperando` in the
// seat report), roles from a group, and who may touch the rules.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { auditLog, companyMembers, companyScimUsers, companySeats, users } from '../src/db/schema.js';
import { buildTestApp, forEachBackend, login, sessionToken, type TestApp } from './helpers/app.js';
import { call, insertMember, planOf } from './helpers/company-fixtures.js';
import { entraUser, scim, scimCompany, scimError, type ScimCompany } from './helpers/scim-fixtures.js';

type Json = Record<string, unknown>;
type GroupBody = { id: string; displayName: string; members?: { value: string; display: string }[]; meta: Json };
type ReportRow = { app: { id: number }; comprados: number; enUso: number; esperando: number };
type Rule = {
  id: number;
  grupo: string;
  grupoRecibido: boolean;
  app: { id: number } | null;
  rol: string | null;
  personas: number;
};

const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const groupSchema = 'urn:ietf:params:scim:schemas:core:2.0:Group';

forEachBackend((backend) => {
  describe(`directory groups decide seats and roles (${backend})`, () => {
    let test: TestApp;
    let app: FastifyInstance;
    let admin: string;
    let serial = 0;

    async function company(seats = 5): Promise<ScimCompany & { manager: string }> {
      serial += 1;
      const made = await scimCompany(app, admin, `Planta ${serial} S.A.`, `planta-grupos-${serial}.cl`, seats);
      return { ...made, manager: await made.owner.token() };
    }

    /** People provisioned as Entra ID does (POST /Users): their SCIM ids and account ids. */
    async function provision(acme: ScimCompany, names: string[]) {
      const people: { scimId: string; userId: number; email: string }[] = [];
      for (const name of names) {
        const email = `${name}@${acme.domain}`;
        const created = await scim(app, acme.token, 'POST', '/Users', entraUser(email, `ext-${name}`));
        assert.equal(created.statusCode, 201, created.body);
        const scimId = created.json<{ id: string }>().id;
        const [row] = await app.db
          .select({ userId: companyScimUsers.userId })
          .from(companyScimUsers)
          .where(eq(companyScimUsers.id, scimId));
        people.push({ scimId, userId: row!.userId, email });
      }
      return people;
    }

    /** Whether the person, signed in, reads the licence's plan (PRO) for app 1. */
    async function hasLicencePlan(userId: number): Promise<boolean> {
      const [user] = await app.db.select().from(users).where(eq(users.id, userId));
      const answer = await call(app, 'GET', '/auth/user', await sessionToken(app, user!));
      assert.equal(answer.statusCode, 200, answer.body);
      return answer
        .json<{ planesUsuarios: { app: { id: number }; plan: { nombre: string } }[] }>()
        .planesUsuarios.some((entry) => entry.app.id === 1 && entry.plan.nombre === 'PRO');
    }

    const seatHolders = async (companyId: number, appId = 1) =>
      (
        await app.db
          .select({ userId: companySeats.userId, source: companySeats.source })
          .from(companySeats)
          .where(and(eq(companySeats.companyId, companyId), eq(companySeats.appId, appId)))
      )
        .map((row) => row.userId)
        .sort((a, b) => a - b);

    const report = async (acme: { companyId: number; manager: string }) => {
      const answer = await call(app, 'GET', `/empresas/${acme.companyId}/informe-puestos`, acme.manager);
      assert.equal(answer.statusCode, 200, answer.body);
      return answer.json<ReportRow[]>().find((row) => row.app.id === 1);
    };

    const rule = async (acme: { companyId: number; manager: string }, body: Json) => {
      const answer = await call(app, 'POST', `/empresas/${acme.companyId}/grupos-directorio`, acme.manager, body);
      assert.equal(answer.statusCode, 201, answer.body);
      return answer.json<{ id: number }>().id;
    };

    const rules = async (acme: { companyId: number; manager: string }) =>
      (await call(app, 'GET', `/empresas/${acme.companyId}/grupos-directorio`, acme.manager)).json<Rule[]>();

    const planOfApp1 = () => planOf(app, 1);

    before(async () => {
      test = await buildTestApp(backend, { apiPublicUrl: 'http://localhost:3000' });
      app = test.app;
      admin = await login(app);
    });
    after(() => test.close());

    it("Entra's way: 'Operadores Planta Norte' seats both members, a filtered remove takes one seat back", async () => {
      const acme = await company();
      const ruleId = await rule(acme, { grupo: 'Operadores Planta Norte', idApp: 1 });
      const [ana, luis] = await provision(acme, ['ana.rojas', 'luis.soto']);

      // Entra looks the group up by name (without members), creates it empty, then adds its members.
      const lookup = await scim(
        app,
        acme.token,
        'GET',
        `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "Operadores Planta Norte"')}`,
      );
      assert.equal(lookup.statusCode, 200, lookup.body);
      assert.equal(lookup.json<{ totalResults: number }>().totalResults, 0);
      const created = await scim(app, acme.token, 'POST', '/Groups', {
        schemas: [groupSchema],
        externalId: 'e1c2-operadores',
        displayName: 'Operadores Planta Norte',
        members: [],
      });
      assert.equal(created.statusCode, 201, created.body);
      const group = created.json<GroupBody>();
      assert.equal(created.headers.location, `http://localhost:3000/scim/v2/Groups/${group.id}`);
      const added = await scim(app, acme.token, 'PATCH', `/Groups/${group.id}`, {
        schemas: [patchOp],
        Operations: [{ op: 'Add', path: 'members', value: [{ value: ana!.scimId }, { value: luis!.scimId }] }],
      });
      assert.equal(added.statusCode, 204, added.body);
      assert.deepEqual(
        await seatHolders(acme.companyId),
        [ana!.userId, luis!.userId].sort((a, b) => a - b),
      );
      const readBack = (await scim(app, acme.token, 'GET', `/Groups/${group.id}`)).json<GroupBody>();
      assert.deepEqual(
        readBack.members?.map((member) => [member.value, member.display]),
        [
          [ana!.scimId, ana!.email],
          [luis!.scimId, luis!.email],
        ],
      );
      const found = await scim(
        app,
        acme.token,
        'GET',
        `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "operadores planta norte"')}`,
      );
      const list = found.json<{ totalResults: number; Resources: GroupBody[] }>();
      assert.equal(list.totalResults, 1);
      assert.equal(list.Resources[0]?.id, group.id);
      assert.equal(list.Resources[0]?.members, undefined, 'excludedAttributes=members');

      // Signed in, they read the licence's plan; taken out by the filtered path, it is gone.
      assert.equal(await hasLicencePlan(luis!.userId), true);
      const removed = await scim(app, acme.token, 'PATCH', `/Groups/${group.id}`, {
        schemas: [patchOp],
        Operations: [{ op: 'Remove', path: `members[value eq "${luis!.scimId}"]` }],
      });
      assert.equal(removed.statusCode, 204, removed.body);
      assert.deepEqual(await seatHolders(acme.companyId), [ana!.userId]);
      assert.equal(await hasLicencePlan(luis!.userId), false);
      assert.equal(await hasLicencePlan(ana!.userId), true);
      const after = (await scim(app, acme.token, 'GET', `/Groups/${group.id}`)).json<GroupBody>();
      assert.deepEqual(
        after.members?.map((member) => member.value),
        [ana!.scimId],
      );

      // The rule shows its group, what it gives and who it covers now.
      const [shown] = await rules(acme);
      assert.deepEqual(
        {
          id: shown?.id,
          grupo: shown?.grupo,
          recibido: shown?.grupoRecibido,
          app: shown?.app?.id,
          personas: shown?.personas,
        },
        { id: ruleId, grupo: 'Operadores Planta Norte', recibido: true, app: 1, personas: 1 },
      );
      // The seat went back as an administrator takes one back: audited, and the directory's log says so.
      const audit = await app.db
        .select({ action: auditLog.action, details: auditLog.details })
        .from(auditLog)
        .where(eq(auditLog.companyId, acme.companyId));
      const actions = audit.map((entry) => entry.action);
      for (const action of [
        'company.group_create',
        'company.group_update',
        'company.seat_assign',
        'company.seat_remove',
      ]) {
        assert.ok(actions.includes(action as never), `${action} in ${actions.join(', ')}`);
      }
      // The company's activity log names the directory as where the group's seats came from, not the operator.
      const activity = await call(app, 'GET', `/empresas/${acme.companyId}/auditoria?limit=50`, acme.manager);
      assert.equal(activity.statusCode, 200, activity.body);
      const seatEntries = activity
        .json<{ data: { action: string; origen: string }[] }>()
        .data.filter((entry) => entry.action === 'company.seat_assign' || entry.action === 'company.seat_remove');
      assert.ok(seatEntries.length >= 2, activity.body);
      assert.deepEqual([...new Set(seatEntries.map((entry) => entry.origen))], ['scim']);
      const log = await call(app, 'GET', `/empresas/${acme.companyId}/scim/registro?limit=3`, acme.manager);
      const rows = log.json<{ data: { metodo: string; estado: number; detalle: string }[] }>().data;
      assert.deepEqual(
        rows.map((row) => [row.metodo, row.estado]),
        [
          ['GET', 200],
          ['PATCH', 204],
          ['GET', 200],
        ],
      );
      assert.match(String(rows[1]?.detalle), /Cambio del grupo «Operadores Planta Norte»: 1 miembro sale/);
    });

    it("Okta's way: a group of 4 for a licence of 2 seats 2, 2 wait in join order and take seats as they free", async () => {
      const acme = await company(2);
      await rule(acme, { grupo: 'Mantención', idApp: 1 });
      const people = await provision(acme, ['p1', 'p2', 'p3', 'p4']);
      const created = await scim(app, acme.token, 'POST', '/Groups', {
        schemas: [groupSchema],
        displayName: 'Mantención',
        members: people.map((person) => ({ value: person.scimId, display: person.email })),
      });
      assert.equal(created.statusCode, 201, created.body);
      const group = created.json<GroupBody>();
      assert.equal(group.members?.length, 4);
      const [p1, p2, p3, p4] = people;
      assert.deepEqual(
        await seatHolders(acme.companyId),
        [p1!.userId, p2!.userId].sort((a, b) => a - b),
      );
      const row = await report(acme);
      assert.deepEqual([row?.comprados, row?.enUso, row?.esperando], [2, 2, 2]);
      const csv = await call(app, 'GET', `/empresas/${acme.companyId}/informe-puestos.csv`, acme.manager);
      assert.match(csv.body.split('\r\n')[0] ?? '', /;Esperando$/);
      assert.match(csv.body.split('\r\n')[1] ?? '', /;2$/);
      const waiting = await call(app, 'GET', `/empresas/${acme.companyId}/grupos-directorio/esperando`, acme.manager);
      assert.deepEqual(
        waiting.json<{ email: string; idApp: number }[]>().map((person) => [person.email, person.idApp]),
        [
          [p3!.email, 1],
          [p4!.email, 1],
        ],
      );

      // Okta takes p1 out: the first who waits (p3) takes the seat.
      const out = await scim(app, acme.token, 'PATCH', `/Groups/${group.id}`, {
        schemas: [patchOp],
        Operations: [{ op: 'remove', path: `members[value eq "${p1!.scimId}"]` }],
      });
      assert.equal(out.statusCode, 204, out.body);
      assert.deepEqual(
        await seatHolders(acme.companyId),
        [p2!.userId, p3!.userId].sort((a, b) => a - b),
      );
      assert.equal((await report(acme))?.esperando, 1);

      // The licence grows: p4 is seated at once.
      const grown = await call(app, 'PUT', `/admin/empresas/${acme.companyId}/licencias/1`, admin, {
        idPlan: await planOfApp1(),
        puestos: 5,
        fechaVencimiento: new Date(Date.now() + 100 * 86_400_000).toISOString(),
      });
      assert.equal(grown.statusCode, 200, grown.body);
      assert.deepEqual(
        await seatHolders(acme.companyId),
        [p2!.userId, p3!.userId, p4!.userId].sort((a, b) => a - b),
      );
      assert.equal((await report(acme))?.esperando, 0);
      // An administrator takes a seat back by hand and the licence is lowered: nobody overbooks.
      const lowered = await call(app, 'PUT', `/admin/empresas/${acme.companyId}/licencias/1`, admin, {
        idPlan: await planOfApp1(),
        puestos: 2,
        fechaVencimiento: new Date(Date.now() + 100 * 86_400_000).toISOString(),
      });
      assert.equal(lowered.statusCode, 200, lowered.body);
      const back = await call(app, 'DELETE', `/empresas/${acme.companyId}/puestos/${p2!.userId}/1`, acme.manager);
      assert.equal(back.statusCode, 204, back.body);
      assert.equal((await seatHolders(acme.companyId)).length, 2, 'still over: nobody seated');
    });

    it("Okta's replace (with and without a path) and PUT; the rule follows a rename; DELETE takes the seats back", async () => {
      const acme = await company();
      const ruleId = await rule(acme, { grupo: 'Bodega', idApp: 1 });
      const [a, b, c] = await provision(acme, ['a', 'b', 'c']);
      const created = await scim(app, acme.token, 'POST', '/Groups', {
        displayName: 'Bodega',
        members: [{ value: a!.scimId }],
      });
      const id = created.json<GroupBody>().id;
      const renamed = await scim(app, acme.token, 'PATCH', `/Groups/${id}`, {
        schemas: [patchOp],
        Operations: [{ op: 'replace', value: { id, displayName: 'Bodega Central' } }],
      });
      assert.equal(renamed.statusCode, 204, renamed.body);
      assert.equal((await rules(acme)).find((r) => r.id === ruleId)?.grupo, 'Bodega Central');
      const withPath = await scim(app, acme.token, 'PATCH', `/Groups/${id}`, {
        schemas: [patchOp],
        Operations: [
          { op: 'replace', path: 'displayName', value: 'Bodega Sur' },
          { op: 'replace', path: 'members', value: [{ value: b!.scimId }] },
        ],
      });
      assert.equal(withPath.statusCode, 204, withPath.body);
      assert.deepEqual(await seatHolders(acme.companyId), [b!.userId]);
      assert.equal((await rules(acme))[0]?.grupo, 'Bodega Sur');
      const put = await scim(app, acme.token, 'PUT', `/Groups/${id}`, {
        schemas: [groupSchema],
        id,
        displayName: 'Bodega Sur',
        members: [{ value: a!.scimId }, { value: c!.scimId }],
      });
      assert.equal(put.statusCode, 200, put.body);
      assert.deepEqual(
        put.json<GroupBody>().members?.map((member) => member.value),
        [a!.scimId, c!.scimId],
      );
      assert.deepEqual(
        await seatHolders(acme.companyId),
        [a!.userId, c!.userId].sort((x, y) => x - y),
      );
      const deleted = await scim(app, acme.token, 'DELETE', `/Groups/${id}`);
      assert.equal(deleted.statusCode, 204, deleted.body);
      assert.deepEqual(await seatHolders(acme.companyId), []);
      scimError(await scim(app, acme.token, 'GET', `/Groups/${id}`), 404);
      const [kept] = await rules(acme);
      assert.deepEqual([kept?.grupo, kept?.grupoRecibido, kept?.personas], ['Bodega Sur', false, 0]);
      // A group of that name sent again is found by the rule.
      const again = await scim(app, acme.token, 'POST', '/Groups', {
        displayName: 'bodega sur',
        members: [{ value: b!.scimId }],
      });
      assert.equal(again.statusCode, 201, again.body);
      assert.deepEqual(await seatHolders(acme.companyId), [b!.userId]);
      scimError(await scim(app, acme.token, 'POST', '/Groups', { displayName: 'Bodega Sur' }), 409, 'uniqueness');
    });

    it('a seat given by hand stays when its holder leaves the group; a member of another company is a SCIM 400', async () => {
      const acme = await company();
      const other = await company();
      await rule(acme, { grupo: 'Turno Noche', idApp: 1 });
      const [hand, dir] = await provision(acme, ['mano', 'dir']);
      const [stranger] = await provision(other, ['ajeno']);
      const byHand = await call(app, 'POST', `/empresas/${acme.companyId}/puestos`, acme.manager, {
        idUsuario: hand!.userId,
        idApp: 1,
      });
      assert.equal(byHand.statusCode, 201, byHand.body);
      const created = await scim(app, acme.token, 'POST', '/Groups', {
        displayName: 'Turno Noche',
        members: [{ value: hand!.scimId }, { value: dir!.scimId }],
      });
      const id = created.json<GroupBody>().id;
      const refused = scimError(
        await scim(app, acme.token, 'PATCH', `/Groups/${id}`, {
          Operations: [{ op: 'add', path: 'members', value: [{ value: stranger!.scimId }] }],
        }),
        400,
        'invalidValue',
      );
      assert.match(refused.detail, /no es una persona del directorio de la empresa/);
      scimError(
        await scim(app, acme.token, 'POST', '/Groups', { displayName: 'Otro', members: [{ value: 'no-es-un-id' }] }),
        400,
        'invalidValue',
      );
      const emptied = await scim(app, acme.token, 'PATCH', `/Groups/${id}`, {
        Operations: [{ op: 'Remove', path: 'members', value: [{ value: hand!.scimId }, { value: dir!.scimId }] }],
      });
      assert.equal(emptied.statusCode, 204, emptied.body);
      const held = await app.db
        .select({ userId: companySeats.userId, source: companySeats.source })
        .from(companySeats)
        .where(eq(companySeats.companyId, acme.companyId));
      assert.deepEqual(held, [{ userId: hand!.userId, source: 'manual' }]);
      // The other company's group is not this company's: 404.
      scimError(await scim(app, other.token, 'GET', `/Groups/${id}`), 404);
    });

    it('a role rule makes a plain member administrador and takes it back; an owner and a role by hand stay', async () => {
      const acme = await company();
      await rule(acme, { grupo: 'Jefes de Turno', rol: 'administrador' });
      const [boss, kept] = await provision(acme, ['jefa', 'conserva']);
      await app.db
        .update(companyMembers)
        .set({ role: 'administrador' })
        .where(and(eq(companyMembers.companyId, acme.companyId), eq(companyMembers.userId, kept!.userId)));
      const roleOf = async (userId: number) =>
        (
          await app.db
            .select({ role: companyMembers.role })
            .from(companyMembers)
            .where(and(eq(companyMembers.companyId, acme.companyId), eq(companyMembers.userId, userId)))
        )[0]?.role;
      const created = await scim(app, acme.token, 'POST', '/Groups', {
        displayName: 'Jefes de Turno',
        members: [{ value: boss!.scimId }, { value: kept!.scimId }],
      });
      const id = created.json<GroupBody>().id;
      assert.equal(await roleOf(boss!.userId), 'administrador');
      await scim(app, acme.token, 'PATCH', `/Groups/${id}`, { Operations: [{ op: 'remove', path: 'members' }] });
      assert.equal(await roleOf(boss!.userId), 'miembro');
      assert.equal(await roleOf(kept!.userId), 'administrador', 'given by hand');
      assert.equal(await roleOf(acme.owner.id), 'propietario');
    });

    it('rules: refusals in Spanish, and only the company’s administrators may read or change them', async () => {
      const acme = await company();
      const other = await company();
      const post = (token: string | undefined, body: Json, companyId = acme.companyId) =>
        call(app, 'POST', `/empresas/${companyId}/grupos-directorio`, token, body);
      const nothing = await post(acme.manager, { grupo: 'Ventas' });
      assert.equal(nothing.statusCode, 400);
      assert.equal(nothing.json().message, 'Indica qué da el grupo: una app (idApp), un rol (rol) o los dos');
      const noLicence = await post(acme.manager, { grupo: 'Ventas', idApp: 2 });
      assert.deepEqual([noLicence.statusCode, noLicence.json().code], [404, 'LICENCIA_NO_ENCONTRADA']);
      const badRole = await post(acme.manager, { grupo: 'Ventas', rol: 'propietario' });
      assert.equal(badRole.statusCode, 400);
      const blank = await post(acme.manager, { grupo: '   ', idApp: 1 });
      assert.equal(blank.statusCode, 400);
      const id = await rule(acme, { grupo: 'Ventas', idApp: 1, rol: 'miembro' });
      const twice = await post(acme.manager, { grupo: 'VENTAS', idApp: 1, rol: 'miembro' });
      assert.deepEqual([twice.statusCode, twice.json().code], [409, 'REGLA_EXISTENTE']);

      const member = await insertMember(app, acme.companyId, `miembro@${acme.domain}`, 'miembro');
      for (const token of [await member.token(), other.manager]) {
        assert.equal((await post(token, { grupo: 'X', idApp: 1 })).statusCode, 403);
        assert.equal((await call(app, 'GET', `/empresas/${acme.companyId}/grupos-directorio`, token)).statusCode, 403);
        assert.equal(
          (await call(app, 'DELETE', `/empresas/${acme.companyId}/grupos-directorio/${id}`, token)).statusCode,
          403,
        );
      }
      assert.equal((await post(undefined, { grupo: 'X', idApp: 1 })).statusCode, 401);
      // Another company's administrator naming this rule under their own company finds nothing.
      const foreign = await call(app, 'DELETE', `/empresas/${other.companyId}/grupos-directorio/${id}`, other.manager);
      assert.deepEqual([foreign.statusCode, foreign.json().code], [404, 'REGLA_NO_ENCONTRADA']);
      assert.equal((await rules(acme)).length, 1);
      const gone = await call(app, 'DELETE', `/empresas/${acme.companyId}/grupos-directorio/${id}`, acme.manager);
      assert.equal(gone.statusCode, 204);
      assert.deepEqual(await rules(acme), []);
      const audited = await app.db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(eq(auditLog.companyId, acme.companyId));
      assert.ok(audited.some((entry) => entry.action === 'company.group_rule_delete'));
    });

    it("a leaver's seat goes to the next in line at once; back in the company, they wait for the next one", async () => {
      const acme = await company(1);
      await rule(acme, { grupo: 'Laboratorio', idApp: 1 });
      const [first, second] = await provision(acme, ['primera', 'segunda']);
      await scim(app, acme.token, 'POST', '/Groups', {
        displayName: 'Laboratorio',
        members: [{ value: first!.scimId }, { value: second!.scimId }],
      });
      assert.deepEqual(await seatHolders(acme.companyId), [first!.userId]);
      const off = await scim(app, acme.token, 'PATCH', `/Users/${first!.scimId}`, {
        Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
      });
      assert.equal(off.statusCode, 200, off.body);
      assert.deepEqual(await seatHolders(acme.companyId), [second!.userId]);
      assert.equal((await report(acme))?.esperando, 0);
      const on = await scim(app, acme.token, 'PATCH', `/Users/${first!.scimId}`, {
        Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
      });
      assert.equal(on.statusCode, 200, on.body);
      assert.deepEqual(await seatHolders(acme.companyId), [second!.userId]);
      assert.equal((await report(acme))?.esperando, 1);
      const out = await call(app, 'DELETE', `/empresas/${acme.companyId}/miembros/${second!.userId}`, acme.manager);
      assert.equal(out.statusCode, 204, out.body);
      assert.deepEqual(await seatHolders(acme.companyId), [first!.userId]);
    });
  });
});
