// An app's roles: the platform administrator defines them on a catalogue app, a company gives them to the people
// holding its seats (a seat taken back takes them along), the administrator gives them to people with their own plan;
// every refusal in Spanish with nothing changed, every change in the audit log. On each backend.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, desc, eq } from 'drizzle-orm';
import { auditLog, companyLicences, userAppRoles, userPlans } from '../src/db/schema.js';
import { rolesInApp } from '../src/domain/apps-and-plans/app-roles.js';
import { planOf } from './helpers/company-fixtures.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';
import { call, insertCompany, insertLicence, insertMember } from './helpers/company-fixtures.js';

const paidApp = 1;
const otherApp = 2;

forEachBackend((backend) => {
  describe('roles of an app', () => {
    let t: TestApp;
    let admin: string;
    before(async () => {
      t = await buildTestApp(backend);
      admin = await login(t.app);
    });
    after(() => t.close());

    const define = (appId: number, body: unknown, token = admin) =>
      call(t.app, 'POST', `/admin/apps/${appId}/roles`, token, body);
    const heldBy = async (userId: number, appId = paidApp) =>
      (
        await t.app.db
          .select({ clave: userAppRoles.clave, companyId: userAppRoles.companyId })
          .from(userAppRoles)
          .where(and(eq(userAppRoles.userId, userId), eq(userAppRoles.appId, appId)))
          .orderBy(userAppRoles.clave)
      ).map((row) => row.clave);
    const lastAudit = async (action: string) => {
      const [row] = await t.app.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, action))
        .orderBy(desc(auditLog.id))
        .limit(1);
      return row;
    };

    let companies = 0;
    /** A company with a licence of the paid app: a manager, a supervisor and an operator holding seats, one without. */
    const company = async () => {
      const tag = `${backend}-${++companies}`;
      const id = await insertCompany(t.app, `Minera ${tag} S.A.`);
      await insertLicence(t.app, id, paidApp, 5);
      const manager = await insertMember(t.app, id, `jefa-${tag}@minera.test`, 'administrador');
      const supervisor = await insertMember(t.app, id, `supervisora-${tag}@minera.test`, 'miembro');
      const operator = await insertMember(t.app, id, `operador-${tag}@minera.test`, 'miembro');
      const seatless = await insertMember(t.app, id, `sin-puesto-${tag}@minera.test`, 'miembro');
      const token = await manager.token();
      for (const person of [supervisor, operator]) {
        const seat = await call(t.app, 'POST', `/empresas/${id}/puestos`, token, {
          idUsuario: person.id,
          idApp: paidApp,
        });
        assert.equal(seat.statusCode, 201, seat.body);
      }
      return { id, manager, supervisor, operator, seatless, token };
    };
    const give = (companyId: number, userId: number, roles: unknown, token: string, appId = paidApp) =>
      call(t.app, 'PUT', `/empresas/${companyId}/miembros/${userId}/roles-app/${appId}`, token, { roles });

    before(async () => {
      assert.equal((await define(paidApp, { clave: 'supervisor', nombre: 'Supervisor' })).statusCode, 201);
      const operador = await define(paidApp, {
        clave: 'operador',
        nombre: 'Operador',
        descripcion: 'Opera los equipos',
      });
      assert.equal(operador.statusCode, 201, operador.body);
      assert.deepEqual(operador.json(), {
        clave: 'operador',
        nombre: 'Operador',
        descripcion: 'Opera los equipos',
        porDefecto: false,
      });
    });

    it('lists the roles by key; a key the app has already is 409 ROL_EXISTE; a bad key is refused', async () => {
      const list = await call(t.app, 'GET', `/admin/apps/${paidApp}/roles`, admin);
      assert.equal(list.statusCode, 200);
      assert.deepEqual(
        list.json().data.map((role: { clave: string }) => role.clave),
        ['operador', 'supervisor'],
      );
      const again = await define(paidApp, { clave: 'supervisor', nombre: 'Otro' });
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().code, 'ROL_EXISTE');
      assert.match(again.json().message, /ya tiene un rol con la clave 'supervisor'/);
      for (const clave of ['Supervisor', 'con espacio', 'x'.repeat(41), '', 'ñandú']) {
        const bad = await define(paidApp, { clave, nombre: 'Malo' });
        assert.equal(bad.statusCode, 400, clave);
      }
      const missing = await define(999_999, { clave: 'jefe', nombre: 'Jefe' });
      assert.equal(missing.statusCode, 404);
      assert.equal((await call(t.app, 'GET', `/admin/apps/${paidApp}/roles`, admin)).json().data.length, 2);
    });

    it('only a platform administrator defines roles', async () => {
      const { token } = await company();
      const refused = await define(paidApp, { clave: 'jefe', nombre: 'Jefe' }, token);
      assert.equal(refused.statusCode, 403);
      assert.equal((await call(t.app, 'GET', `/admin/apps/${paidApp}/roles`, token)).statusCode, 403);
    });

    it('at most one default role: making another the default takes it from the first', async () => {
      const first = await call(t.app, 'PATCH', `/admin/apps/${otherApp}/roles/lector`, admin, { porDefecto: true });
      assert.equal(first.statusCode, 404);
      assert.equal(first.json().code, 'ROL_NO_ENCONTRADO');
      await define(otherApp, { clave: 'lector', nombre: 'Lector' });
      await define(otherApp, { clave: 'editor', nombre: 'Editor' });
      const lector = await call(t.app, 'PATCH', `/admin/apps/${otherApp}/roles/lector`, admin, { porDefecto: true });
      assert.equal(lector.statusCode, 200);
      assert.equal(lector.json().porDefecto, true);
      const editor = await call(t.app, 'PATCH', `/admin/apps/${otherApp}/roles/editor`, admin, {
        porDefecto: true,
        nombre: 'Editora',
      });
      assert.deepEqual(editor.json(), { clave: 'editor', nombre: 'Editora', descripcion: '', porDefecto: true });
      const list = (await call(t.app, 'GET', `/admin/apps/${otherApp}/roles`, admin)).json().data;
      assert.deepEqual(
        list.map((role: { clave: string; porDefecto: boolean }) => [role.clave, role.porDefecto]),
        [
          ['editor', true],
          ['lector', false],
        ],
      );
      const audit = await lastAudit('app.role_update');
      assert.deepEqual(audit?.details, {
        clave: 'editor',
        cambios: { porDefecto: { antes: false, despues: true }, nombre: { antes: 'Editor', despues: 'Editora' } },
      });
    });

    it('a company gives its supervisor and operator their roles; GET lists each app of a seat with its roles', async () => {
      const c = await company();
      const sup = await give(c.id, c.supervisor.id, ['supervisor'], c.token);
      assert.equal(sup.statusCode, 200, sup.body);
      assert.deepEqual(sup.json(), { idApp: paidApp, roles: ['supervisor'] });
      const op = await give(c.id, c.operator.id, ['operador', 'operador'], c.token);
      assert.deepEqual(op.json(), { idApp: paidApp, roles: ['operador'] });
      assert.deepEqual(await heldBy(c.supervisor.id), ['supervisor']);
      assert.deepEqual(await heldBy(c.operator.id), ['operador']);

      const listed = await call(t.app, 'GET', `/empresas/${c.id}/miembros/${c.supervisor.id}/roles-app`, c.token);
      assert.equal(listed.statusCode, 200);
      assert.deepEqual(listed.json(), {
        data: [
          {
            idApp: paidApp,
            nombreApp: 'Control Max 360',
            roles: ['supervisor'],
            rolesGrupo: [],
            disponibles: [
              { clave: 'operador', nombre: 'Operador', descripcion: 'Opera los equipos', porDefecto: false },
              { clave: 'supervisor', nombre: 'Supervisor', descripcion: '', porDefecto: false },
            ],
          },
        ],
      });
      const none = await call(t.app, 'GET', `/empresas/${c.id}/miembros/${c.seatless.id}/roles-app`, c.token);
      assert.deepEqual(none.json(), { data: [] });

      const audit = await lastAudit('company.app_roles_change');
      assert.equal(audit?.companyId, c.id);
      assert.equal(audit?.actorEmail, c.manager.email);
      assert.deepEqual(audit?.details, {
        userId: c.operator.id,
        email: c.operator.email,
        appId: paidApp,
        antes: [],
        despues: ['operador'],
        nombres: { operador: 'Operador' },
        fuenteRoles: 'mano',
      });
      // The company's own log shows it to its administrators.
      const log = await call(t.app, 'GET', `/empresas/${c.id}/auditoria?action=company.app_roles_change`, c.token);
      assert.equal(log.statusCode, 200, log.body);
      assert.equal(log.json().data.length, 2);

      // Replacing: what is not sent is taken away.
      const both = await give(c.id, c.supervisor.id, ['supervisor', 'operador'], c.token);
      assert.deepEqual(both.json().roles, ['operador', 'supervisor']);
      const back = await give(c.id, c.supervisor.id, [], c.token);
      assert.deepEqual(back.json().roles, []);
      assert.deepEqual(await heldBy(c.supervisor.id), []);
      assert.deepEqual((await lastAudit('company.app_roles_change'))?.details, {
        userId: c.supervisor.id,
        email: c.supervisor.email,
        appId: paidApp,
        antes: ['operador', 'supervisor'],
        despues: [],
        nombres: { operador: 'Operador', supervisor: 'Supervisor' },
        fuenteRoles: 'mano',
      });
    });

    it("the seat report names the app's roles with how many people the company gave each, in the CSV too", async () => {
      const c = await company();
      await give(c.id, c.supervisor.id, ['supervisor'], c.token);
      await give(c.id, c.operator.id, ['operador'], c.token);
      await give(c.id, c.manager.id, ['operador'], c.token).then((answer) => assert.equal(answer.statusCode, 409));
      const report = await call(t.app, 'GET', `/empresas/${c.id}/informe-puestos`, c.token);
      assert.equal(report.statusCode, 200, report.body);
      const row = report.json().find((one: { app: { id: number } }) => one.app.id === paidApp);
      assert.deepEqual(
        row.roles.filter((role: { clave: string }) => ['operador', 'supervisor'].includes(role.clave)),
        [
          { clave: 'operador', nombre: 'Operador', personas: 1 },
          { clave: 'supervisor', nombre: 'Supervisor', personas: 1 },
        ],
      );
      const csv = await call(t.app, 'GET', `/empresas/${c.id}/informe-puestos.csv`, c.token);
      const [header, line] = csv.body.split('\r\n');
      assert.match(header ?? '', /;Vencida;Roles;Esperando$/);
      assert.match(line ?? '', /;Operador: 1 · Supervisor: 1;0$/);
    });

    it('a member without a seat of the app is 409 SIN_PUESTO; an unknown role 400 ROL_DESCONOCIDO; nothing changes', async () => {
      const c = await company();
      const seatless = await give(c.id, c.seatless.id, ['operador'], c.token);
      assert.equal(seatless.statusCode, 409);
      assert.equal(seatless.json().code, 'SIN_PUESTO');
      assert.match(seatless.json().message, /no tiene un puesto de esta aplicación/);
      const otherSeat = await give(c.id, c.operator.id, ['lector'], c.token, otherApp);
      assert.equal(otherSeat.json().code, 'SIN_PUESTO');
      const unknown = await give(c.id, c.operator.id, ['operador', 'gerente'], c.token);
      assert.equal(unknown.statusCode, 400);
      assert.equal(unknown.json().code, 'ROL_DESCONOCIDO');
      assert.equal(unknown.json().message, "Esta aplicación no tiene el rol 'gerente'");
      // Another app's role is unknown in this one.
      const foreign = await give(c.id, c.operator.id, ['lector'], c.token);
      assert.equal(foreign.json().code, 'ROL_DESCONOCIDO');
      assert.deepEqual(await heldBy(c.operator.id), []);
      assert.deepEqual(await heldBy(c.seatless.id), []);
      const malformed = await give(c.id, c.operator.id, 'operador', c.token);
      assert.equal(malformed.statusCode, 400);
    });

    it('only who may manage the company gives roles: a plain member and another company are 403', async () => {
      const c = await company();
      const member = await give(c.id, c.operator.id, ['operador'], await c.operator.token());
      assert.equal(member.statusCode, 403);
      const stranger = await company();
      const foreign = await give(c.id, c.operator.id, ['operador'], stranger.token);
      assert.equal(foreign.statusCode, 403);
      const read = await call(t.app, 'GET', `/empresas/${c.id}/miembros/${c.operator.id}/roles-app`, stranger.token);
      assert.equal(read.statusCode, 403);
      assert.deepEqual(await heldBy(c.operator.id), []);
      // A platform administrator may, as with the company's other calls.
      assert.equal((await give(c.id, c.operator.id, ['operador'], admin)).statusCode, 200);
    });

    it("a company's roles count while its seat counts: an expired licence takes them from the app", async () => {
      const c = await company();
      await give(c.id, c.operator.id, ['operador'], c.token);
      assert.deepEqual(await rolesInApp(t.app.db, c.operator.id, paidApp, true), ['operador']);
      await t.app.db
        .update(companyLicences)
        .set({ expiresAt: new Date(Date.now() - 60_000) })
        .where(and(eq(companyLicences.companyId, c.id), eq(companyLicences.appId, paidApp)));
      assert.deepEqual(await rolesInApp(t.app.db, c.operator.id, paidApp, false), []);
      // Still given: back when the licence is renewed.
      await t.app.db
        .update(companyLicences)
        .set({ expiresAt: new Date(Date.now() + 86_400_000) })
        .where(and(eq(companyLicences.companyId, c.id), eq(companyLicences.appId, paidApp)));
      assert.deepEqual(await rolesInApp(t.app.db, c.operator.id, paidApp, true), ['operador']);
    });

    it("taking the seat back takes that company's roles of the app with it, audited: by whom, the roles' names, why", async () => {
      const c = await company();
      await give(c.id, c.operator.id, ['operador', 'supervisor'], c.token);
      const removed = await call(t.app, 'DELETE', `/empresas/${c.id}/puestos/${c.operator.id}/${paidApp}`, c.token);
      assert.equal(removed.statusCode, 204);
      assert.deepEqual(await heldBy(c.operator.id), []);
      const audit = await lastAudit('company.app_roles_change');
      assert.equal(audit?.companyId, c.id);
      assert.deepEqual([audit?.actorId, audit?.actorEmail], [c.manager.id, c.manager.email]);
      assert.deepEqual(audit?.details, {
        userId: c.operator.id,
        email: c.operator.email,
        appId: paidApp,
        antes: ['operador', 'supervisor'],
        despues: [],
        nombres: { operador: 'Operador', supervisor: 'Supervisor' },
        fuenteRoles: 'puesto',
        motivo: 'puesto_retirado',
      });
      const again = await give(c.id, c.operator.id, ['operador'], c.token);
      assert.equal(again.json().code, 'SIN_PUESTO');

      // Taking the member out of the company takes them too, and says so.
      await give(c.id, c.supervisor.id, ['supervisor'], c.token);
      const out = await call(t.app, 'DELETE', `/empresas/${c.id}/miembros/${c.supervisor.id}`, c.token);
      assert.equal(out.statusCode, 204, out.body);
      const taken = await lastAudit('company.app_roles_change');
      assert.deepEqual(
        [taken?.actorEmail, taken?.details.motivo, taken?.details.nombres],
        [c.manager.email, 'miembro_retirado', { supervisor: 'Supervisor' }],
      );
      // The company's log names its administrator, never the operator's console.
      const log = await call(t.app, 'GET', `/empresas/${c.id}/auditoria?action=company.app_roles_change`, c.token);
      assert.deepEqual(
        log
          .json<{ data: { actorEmail: string; origen: string }[] }>()
          .data.slice(0, 2)
          .map((entry) => [entry.actorEmail, entry.origen]),
        [
          [c.manager.email, 'administrador'],
          [c.manager.email, 'administrador'],
        ],
      );
    });

    it('the administrator gives roles to a person with their own plan; without one 409 SIN_PLAN', async () => {
      const own = await createUser(t.app, { email: `propia-${backend}@correo.test`, password: 'x', status: 'active' });
      const url = `/admin/users/${own}/roles-app/${paidApp}`;
      const withoutPlan = await call(t.app, 'PUT', url, admin, { roles: ['supervisor'] });
      assert.equal(withoutPlan.statusCode, 409);
      assert.equal(withoutPlan.json().code, 'SIN_PLAN');
      await t.app.db.insert(userPlans).values({ userId: own, appId: paidApp, planId: await planOf(t.app, paidApp) });
      const given = await call(t.app, 'PUT', url, admin, { roles: ['supervisor'] });
      assert.equal(given.statusCode, 200, given.body);
      assert.deepEqual(given.json(), { idApp: paidApp, roles: ['supervisor'] });
      assert.deepEqual(await heldBy(own), ['supervisor']);
      const audit = await lastAudit('user.app_roles_change');
      assert.equal(audit?.targetId, own);
      assert.equal(audit?.companyId, null);
      assert.deepEqual(audit?.details, {
        userId: own,
        email: `propia-${backend}@correo.test`,
        appId: paidApp,
        antes: [],
        despues: ['supervisor'],
        nombres: { supervisor: 'Supervisor' },
        fuenteRoles: 'mano',
      });
      const unknown = await call(t.app, 'PUT', url, admin, { roles: ['gerente'] });
      assert.equal(unknown.json().code, 'ROL_DESCONOCIDO');
      // The own plan taken away takes the platform's roles with it.
      const ownPlan = await t.app.db
        .select()
        .from(userPlans)
        .where(and(eq(userPlans.userId, own), eq(userPlans.appId, paidApp)));
      await t.app.db.delete(userPlans).where(and(eq(userPlans.userId, own), eq(userPlans.appId, paidApp)));
      assert.deepEqual(await heldBy(own), []);
      assert.deepEqual((await lastAudit('user.app_roles_change'))?.details, {
        userId: own,
        email: `propia-${backend}@correo.test`,
        appId: paidApp,
        antes: ['supervisor'],
        despues: [],
        nombres: { supervisor: 'Supervisor' },
        fuenteRoles: 'plan',
      });
      await t.app.db.insert(userPlans).values(ownPlan.map(({ id: _id, ...row }) => row));
      assert.equal((await call(t.app, 'PUT', url, admin, { roles: ['supervisor'] })).statusCode, 200);
      const nobody = await call(t.app, 'PUT', `/admin/users/999999/roles-app/${paidApp}`, admin, { roles: [] });
      assert.equal(nobody.statusCode, 404);
      const c = await company();
      const notAdmin = await call(t.app, 'PUT', url, c.token, { roles: [] });
      assert.equal(notAdmin.statusCode, 403);
      assert.deepEqual(await heldBy(own), ['supervisor']);
    });

    it('deleting a role takes it from everyone who had it, each audited', async () => {
      assert.equal((await define(paidApp, { clave: 'auditor', nombre: 'Auditor' })).statusCode, 201);
      const c = await company();
      await give(c.id, c.supervisor.id, ['auditor', 'supervisor'], c.token);
      await give(c.id, c.operator.id, ['auditor'], c.token);
      const deleted = await call(t.app, 'DELETE', `/admin/apps/${paidApp}/roles/auditor`, admin);
      assert.equal(deleted.statusCode, 204);
      assert.deepEqual(await heldBy(c.supervisor.id), ['supervisor']);
      assert.deepEqual(await heldBy(c.operator.id), []);
      const entries = await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'company.app_roles_change'), eq(auditLog.companyId, c.id)))
        .orderBy(desc(auditLog.id))
        .limit(2);
      assert.deepEqual(
        entries.map((entry) => entry.details).sort((a, b) => Number(a.userId) - Number(b.userId)),
        [
          {
            userId: c.supervisor.id,
            email: c.supervisor.email,
            appId: paidApp,
            antes: ['auditor', 'supervisor'],
            despues: ['supervisor'],
            nombres: { auditor: 'Auditor', supervisor: 'Supervisor' },
            fuenteRoles: 'eliminacion',
          },
          {
            userId: c.operator.id,
            email: c.operator.email,
            appId: paidApp,
            antes: ['auditor'],
            despues: [],
            nombres: { auditor: 'Auditor' },
            fuenteRoles: 'eliminacion',
          },
        ],
      );
      assert.deepEqual((await lastAudit('app.role_delete'))?.details, { clave: 'auditor', retiradoA: 2 });
      const gone = await call(t.app, 'DELETE', `/admin/apps/${paidApp}/roles/auditor`, admin);
      assert.equal(gone.statusCode, 404);
      assert.equal(gone.json().code, 'ROL_NO_ENCONTRADO');
    });
  });
});
