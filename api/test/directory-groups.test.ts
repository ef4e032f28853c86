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
import { call, insertMember } from './helpers/company-fixtures.js';
import { entraUser, scim, scimCompany, scimError, type ScimCompany } from './helpers/scim-fixtures.js';

type Json = Record<string, unknown>;
type GroupBody = { id: string; displayName: string; members?: { value: string; display: string }[]; meta: Json };
type ReportRow = { app: { id: number }; comprados: number; enUso: number; esperando: number };
type Rule = { id: number; grupo: string; grupoRecibido: boolean; app: { id: number } | null; rol: string | null; personas: number };

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
      assert.deepEqual(await seatHolders(acme.companyId), [ana!.userId, luis!.userId].sort((a, b) => a - b));
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
      assert.deepEqual(after.members?.map((member) => member.value), [ana!.scimId]);

      // The rule shows its group, what it gives and who it covers now.
      const [shown] = await rules(acme);
      assert.deepEqual(
        { id: shown?.id, grupo: shown?.grupo, recibido: shown?.grupoRecibido, app: shown?.app?.id, personas: shown?.personas },
        { id: ruleId, grupo: 'Operadores Planta Norte', recibido: true, app: 1, personas: 1 },
      );
      // The seat went back as an administrator takes one back: audited, and the directory's log says so.
      const audit = await app.db
        .select({ action: auditLog.action, details: auditLog.details })
        .from(auditLog)
        .where(eq(auditLog.companyId, acme.companyId));
      const actions = audit.map((entry) => entry.action);
      for (const action of ['company.group_create', 'company.group_update', 'company.seat_assign', 'company.seat_remove']) {
        assert.ok(actions.includes(action as never), `${action} in ${actions.join(', ')}`);
      }
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
  });
});
