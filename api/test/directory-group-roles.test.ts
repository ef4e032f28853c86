// A directory group gives roles of an app: a rule `{ grupo, idApp, rolesApp }`, the group's members take the roles
// with the seat, a member taken out of the group loses them (and the seat), roles given by hand stay beside them, and
// a rule with roles but no app or an unknown role is refused with nothing written. On each backend.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { auditLog, companyGroupRules, companyScimUsers, userAppRoles } from '../src/db/schema.js';
import { rolesInApp } from '../src/domain/apps-and-plans/app-roles.js';
import type { EcsDocument } from '../src/domain/audit/ecs.js';
import { buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';
import { call, insertMember } from './helpers/company-fixtures.js';
import { entraUser, scim, scimCompany, type ScimCompany } from './helpers/scim-fixtures.js';

const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const groupSchema = 'urn:ietf:params:scim:schemas:core:2.0:Group';

forEachBackend((backend) => {
  describe(`directory groups give roles of an app (${backend})`, () => {
    let test: TestApp;
    let app: FastifyInstance;
    let admin: string;

    before(async () => {
      test = await buildTestApp(backend, { apiPublicUrl: 'http://localhost:3000' });
      app = test.app;
      admin = await login(app);
      for (const [clave, nombre] of [
        ['supervisor', 'Supervisora de planta'],
        ['operador', 'Operador'],
      ]) {
        const made = await call(app, 'POST', '/admin/apps/1/roles', admin, { clave, nombre });
        assert.equal(made.statusCode, 201, made.body);
      }
    });
    after(() => test.close());

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
    const held = async (userId: number) =>
      (
        await app.db
          .select({ clave: userAppRoles.clave, fuente: userAppRoles.fuente })
          .from(userAppRoles)
          .where(and(eq(userAppRoles.userId, userId), eq(userAppRoles.appId, 1)))
          .orderBy(userAppRoles.clave, userAppRoles.fuente)
      ).map((row) => `${row.clave}:${row.fuente}`);

    it("the group's members take its roles with the seat, lose them when taken out; a hand-given role stays", async () => {
      const acme = await scimCompany(app, admin, `Planta roles ${backend} S.A.`, `planta-roles-${backend}.cl`, 5);
      const manager = await acme.owner.token();
      const rule = await call(app, 'POST', `/empresas/${acme.companyId}/grupos-directorio`, manager, {
        grupo: 'Supervisores Planta Norte',
        idApp: 1,
        rolesApp: ['supervisor'],
      });
      assert.equal(rule.statusCode, 201, rule.body);
      const rules = await call(app, 'GET', `/empresas/${acme.companyId}/grupos-directorio`, manager);
      assert.deepEqual(rules.json()[0].rolesApp, ['supervisor']);

      const [ana, luis] = await provision(acme, ['ana.rojas', 'luis.soto']);
      const created = await scim(app, acme.token, 'POST', '/Groups', {
        schemas: [groupSchema],
        displayName: 'Supervisores Planta Norte',
        members: [{ value: ana!.scimId }, { value: luis!.scimId }],
      });
      assert.equal(created.statusCode, 201, created.body);
      const groupId = created.json<{ id: string }>().id;
      assert.deepEqual(await held(ana!.userId), ['supervisor:grupo']);
      assert.deepEqual(await held(luis!.userId), ['supervisor:grupo']);
      assert.deepEqual(await rolesInApp(app.db, ana!.userId, 1, true), ['supervisor']);
      const [given] = await app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'company.app_roles_change'), eq(auditLog.companyId, acme.companyId)))
        .orderBy(desc(auditLog.id))
        .limit(1);
      assert.equal(given?.details.fuenteRoles, 'grupo');
      assert.deepEqual(given?.details.despues, ['supervisor']);

      // By hand, the company gives Ana 'operador' too: the group's role is not the hand's to take.
      const byHand = await call(
        app,
        'PUT',
        `/empresas/${acme.companyId}/miembros/${ana!.userId}/roles-app/1`,
        manager,
        {
          roles: ['operador'],
        },
      );
      assert.deepEqual(byHand.json(), { idApp: 1, roles: ['operador'] });
      assert.deepEqual(await rolesInApp(app.db, ana!.userId, 1, true), ['operador', 'supervisor']);
      const listed = await call(app, 'GET', `/empresas/${acme.companyId}/miembros/${ana!.userId}/roles-app`, manager);
      assert.deepEqual(
        listed.json().data.map((entry: { roles: string[]; rolesGrupo: string[] }) => [entry.roles, entry.rolesGrupo]),
        [[['operador'], ['supervisor']]],
      );
      const cleared = await call(
        app,
        'PUT',
        `/empresas/${acme.companyId}/miembros/${ana!.userId}/roles-app/1`,
        manager,
        {
          roles: [],
        },
      );
      assert.equal(cleared.statusCode, 200);
      assert.deepEqual(await held(ana!.userId), ['supervisor:grupo']);

      // Luis leaves the group: the seat the group gave goes, and the role with it.
      const removed = await scim(app, acme.token, 'PATCH', `/Groups/${groupId}`, {
        schemas: [patchOp],
        Operations: [{ op: 'Remove', path: `members[value eq "${luis!.scimId}"]` }],
      });
      assert.equal(removed.statusCode, 204, removed.body);
      assert.deepEqual(await held(luis!.userId), []);
      assert.deepEqual(await held(ana!.userId), ['supervisor:grupo']);
      // The directory took them, by name, and why: out of the group; then, Ana, deactivated in the directory.
      const deactivated = await scim(app, acme.token, 'PATCH', `/Users/${ana!.scimId}`, {
        schemas: [patchOp],
        Operations: [{ op: 'replace', path: 'active', value: false }],
      });
      assert.equal(deactivated.statusCode, 200, deactivated.body);
      const log = await call(
        app,
        'GET',
        `/empresas/${acme.companyId}/auditoria?action=company.app_roles_change`,
        manager,
      );
      const taken = log
        .json<{ data: { actorEmail: string; origen: string; details: Record<string, unknown> }[] }>()
        .data.filter((entry) => entry.details.fuenteRoles === 'puesto')
        .map((entry) => [
          entry.details.email,
          entry.actorEmail,
          entry.origen,
          entry.details.motivo,
          entry.details.nombres,
        ]);
      assert.deepEqual(taken, [
        [ana!.email, 'directorio (SCIM)', 'scim', 'baja_directorio', { supervisor: 'Supervisora de planta' }],
        [luis!.email, 'directorio (SCIM)', 'scim', 'grupo_directorio', { supervisor: 'Supervisora de planta' }],
      ]);
    });

    it('a member who holds the seat by hand takes the roles when the group gets a rule, and loses them with it', async () => {
      const acme = await scimCompany(app, admin, `Planta reglas ${backend} S.A.`, `planta-reglas-${backend}.cl`, 5);
      const manager = await acme.owner.token();
      const [eva] = await provision(acme, ['eva.diaz']);
      const seat = await call(app, 'POST', `/empresas/${acme.companyId}/puestos`, manager, {
        idUsuario: eva!.userId,
        idApp: 1,
      });
      assert.equal(seat.statusCode, 201, seat.body);
      const created = await scim(app, acme.token, 'POST', '/Groups', {
        schemas: [groupSchema],
        displayName: 'Operadores',
        members: [{ value: eva!.scimId }],
      });
      assert.equal(created.statusCode, 201, created.body);
      assert.deepEqual(await held(eva!.userId), []);
      const rule = await call(app, 'POST', `/empresas/${acme.companyId}/grupos-directorio`, manager, {
        grupo: 'Operadores',
        idApp: 1,
        rolesApp: ['operador'],
      });
      assert.equal(rule.statusCode, 201, rule.body);
      assert.deepEqual(await held(eva!.userId), ['operador:grupo']);
      const gone = await call(
        app,
        'DELETE',
        `/empresas/${acme.companyId}/grupos-directorio/${rule.json().id}`,
        manager,
      );
      assert.equal(gone.statusCode, 204, gone.body);
      // The seat was given by hand: it stays, the group's role goes.
      assert.deepEqual(await held(eva!.userId), []);
      assert.deepEqual(await rolesInApp(app.db, eva!.userId, 1, true), []);
    });

    it("a role a directory group gives reads as the directory's, the same on a new seat and on a group change: in the log and in ECS", async () => {
      const acme = await scimCompany(app, admin, `Planta origen ${backend} S.A.`, `planta-origen-${backend}.cl`, 5);
      const manager = await acme.owner.token();
      const rule = await call(app, 'POST', `/empresas/${acme.companyId}/grupos-directorio`, manager, {
        grupo: 'Turno A',
        idApp: 1,
        rolesApp: ['supervisor'],
      });
      assert.equal(rule.statusCode, 201, rule.body);
      const [rosa, tomas] = await provision(acme, ['rosa.vidal', 'tomas.rey']);
      // Tomás holds the app's seat by hand; Rosa takes hers from the group (the seat's trigger gives her the role).
      const seat = await call(app, 'POST', `/empresas/${acme.companyId}/puestos`, manager, {
        idUsuario: tomas!.userId,
        idApp: 1,
      });
      assert.equal(seat.statusCode, 201, seat.body);
      const created = await scim(app, acme.token, 'POST', '/Groups', {
        schemas: [groupSchema],
        displayName: 'Turno A',
        members: [{ value: rosa!.scimId }],
      });
      assert.equal(created.statusCode, 201, created.body);
      // Tomás joins the group: his seat stays, the role comes with the group change.
      const joined = await scim(app, acme.token, 'PATCH', `/Groups/${created.json<{ id: string }>().id}`, {
        schemas: [patchOp],
        Operations: [{ op: 'Add', path: 'members', value: [{ value: tomas!.scimId }] }],
      });
      assert.equal(joined.statusCode, 204, joined.body);
      assert.deepEqual(await held(rosa!.userId), ['supervisor:grupo']);
      assert.deepEqual(await held(tomas!.userId), ['supervisor:grupo']);

      const log = await call(
        app,
        'GET',
        `/empresas/${acme.companyId}/auditoria?action=company.app_roles_change`,
        manager,
      );
      type Entry = { actorId: number | null; actorEmail: string; origen: string; details: Record<string, unknown> };
      const entries = log.json<{ data: Entry[] }>().data;
      const entryOf = (email: string) => entries.find((entry) => entry.details.email === email);
      const [newSeat, groupChange] = [entryOf(rosa!.email), entryOf(tomas!.email)];
      const source = (entry: Entry | undefined) => [
        entry?.actorId,
        entry?.actorEmail,
        entry?.origen,
        entry?.details.fuente,
        entry?.details.fuenteRoles,
        entry?.details.antes,
        entry?.details.despues,
        entry?.details.nombres,
      ];
      const directory = [
        null,
        'directorio (SCIM)',
        'scim',
        'directorio',
        'grupo',
        [],
        ['supervisor'],
        { supervisor: 'Supervisora de planta' },
      ];
      assert.deepEqual(source(newSeat), directory, 'on a new seat');
      assert.deepEqual(source(groupChange), directory, 'on a group change');
      // The seat the group gave Rosa, which the directory's code writes (the roles are the database's): the same actor.
      const seats = await call(app, 'GET', `/empresas/${acme.companyId}/auditoria?action=company.seat_assign`, manager);
      const seatEntry = seats.json<{ data: Entry[] }>().data.find((entry) => entry.details.email === rosa!.email);
      assert.deepEqual(source(seatEntry).slice(0, 4), directory.slice(0, 4), "the directory's seat");

      const ecs = await call(app, 'GET', `/empresas/${acme.companyId}/auditoria?formato=ecs&limit=100`, manager);
      const docs = ecs
        .json<{ data: EcsDocument[] }>()
        .data.filter((doc) => doc.event.action === 'company.app_roles_change');
      const shown = (email: string) => {
        const doc = docs.find((one) => one.user?.target?.email === email);
        return [doc?.user?.id, doc?.user?.email, doc?.portal.origen, doc?.portal.detalles.fuente];
      };
      assert.deepEqual(shown(rosa!.email), [undefined, undefined, 'scim', 'directorio']);
      assert.deepEqual(shown(tomas!.email), shown(rosa!.email));
    });

    it("the company's managers read the roles of its licensed apps, to give them and to name them; a member may not", async () => {
      const acme = await scimCompany(app, admin, `Planta catálogo ${backend} S.A.`, `planta-catalogo-${backend}.cl`, 5);
      const manager = await acme.owner.token();
      // App 2's role is not the company's to give: it holds no licence of app 2.
      const other = await call(app, 'POST', '/admin/apps/2/roles', admin, { clave: 'analista', nombre: 'Analista' });
      assert.equal(other.statusCode, 201, other.body);
      const renamed = await call(app, 'PATCH', '/admin/apps/1/roles/supervisor', admin, {
        nombre: 'Supervisor de turno',
        porDefecto: true,
      });
      assert.equal(renamed.statusCode, 200, renamed.body);
      const listed = await call(app, 'GET', `/empresas/${acme.companyId}/roles-app`, manager);
      assert.equal(listed.statusCode, 200, listed.body);
      assert.deepEqual(listed.json(), {
        data: [
          {
            idApp: 1,
            nombreApp: 'Control Max 360',
            roles: [
              { clave: 'operador', nombre: 'Operador', descripcion: '', porDefecto: false },
              { clave: 'supervisor', nombre: 'Supervisor de turno', descripcion: '', porDefecto: true },
            ],
          },
        ],
      });
      const member = await insertMember(app, acme.companyId, `ana@${acme.domain}`, 'miembro');
      const refused = await call(app, 'GET', `/empresas/${acme.companyId}/roles-app`, await member.token());
      assert.equal(refused.statusCode, 403);
      const restored = await call(app, 'PATCH', '/admin/apps/1/roles/supervisor', admin, {
        nombre: 'Supervisora de planta',
        porDefecto: false,
      });
      assert.equal(restored.statusCode, 200, restored.body);
    });

    it('a rule with roles but no app, or an unknown role, is refused with nothing written', async () => {
      const acme = await scimCompany(app, admin, `Planta malas ${backend} S.A.`, `planta-malas-${backend}.cl`, 5);
      const manager = await acme.owner.token();
      const url = `/empresas/${acme.companyId}/grupos-directorio`;
      const noApp = await call(app, 'POST', url, manager, {
        grupo: 'Jefes',
        rol: 'administrador',
        rolesApp: ['supervisor'],
      });
      assert.equal(noApp.statusCode, 400);
      assert.equal(noApp.json().code, 'REGLA_ROLES_SIN_APP');
      const unknown = await call(app, 'POST', url, manager, { grupo: 'Jefes', idApp: 1, rolesApp: ['gerente'] });
      assert.equal(unknown.statusCode, 400);
      assert.equal(unknown.json().code, 'ROL_DESCONOCIDO');
      const bad = await call(app, 'POST', url, manager, { grupo: 'Jefes', idApp: 1, rolesApp: ['Con Espacio'] });
      assert.equal(bad.statusCode, 400);
      const rows = await app.db.select().from(companyGroupRules).where(eq(companyGroupRules.companyId, acme.companyId));
      assert.deepEqual(rows, []);
    });
  });
});
