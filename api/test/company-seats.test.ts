// A company's seats as its administrators hand them out: assignment under the licence's count (the trigger keeps
// seats_in_use), every refusal in Spanish with nothing changed, taking back, the cursor-paged list, and the seat
// report with its CSV. On each backend.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { apps, auditLog, companyLicences, companySeats, plans, users } from '../src/db/schema.js';
import { buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';
import { call, insertCompany, insertLicence, insertMember } from './helpers/company-fixtures.js';

interface SeatPage {
  data: Array<{
    idUsuario: number;
    email: string;
    nombre: string;
    apellido: string;
    idApp: number;
    asignadoEn: string;
  }>;
  total: number;
  totalLimitado: boolean;
  siguiente: string | null;
}

const dayMs = 86_400_000;

forEachBackend((backend) => {
  let t: TestApp;
  let admin: string;
  before(async () => {
    t = await buildTestApp(backend);
    admin = await login(t.app);
  });
  after(() => t.close());

  let companies = 0;
  const company = async (members = 3) => {
    const tag = `${backend}-${++companies}`;
    const id = await insertCompany(t.app, `Andina ${tag} S.A.`);
    const manager = await insertMember(t.app, id, `jefa-${tag}@andina.test`, 'administrador');
    const people = [];
    for (let i = 0; i < members; i++) people.push(await insertMember(t.app, id, `p${i}-${tag}@andina.test`, 'miembro'));
    return { id, tag, manager, people, token: await manager.token() };
  };
  const assign = (companyId: number, token: string, body: unknown) =>
    call(t.app, 'POST', `/empresas/${companyId}/puestos`, token, body);
  const licence = async (companyId: number, appId: number) => {
    const [row] = await t.app.db
      .select()
      .from(companyLicences)
      .where(and(eq(companyLicences.companyId, companyId), eq(companyLicences.appId, appId)));
    return row!;
  };
  const seatsOf = (companyId: number) =>
    t.app.db
      .select()
      .from(companySeats)
      .where(eq(companySeats.companyId, companyId))
      .orderBy(companySeats.appId, companySeats.userId);

  describe('assignment', () => {
    it('assigns until the licence is full, then 409 SIN_PUESTOS naming the app; the count follows', async () => {
      const c = await company();
      await insertLicence(t.app, c.id, 1, 2);
      const [a, b, d] = c.people;
      const first = await assign(c.id, c.token, { idUsuario: a!.id, idApp: 1 });
      assert.equal(first.statusCode, 201, first.body);
      const seat = first.json<{ idUsuario: number; idApp: number; asignadoEn: string }>();
      assert.equal(seat.idUsuario, a!.id);
      assert.equal(seat.idApp, 1);
      assert.ok(Math.abs(Date.parse(seat.asignadoEn) - Date.now()) < 60_000);
      assert.equal((await assign(c.id, c.token, { idUsuario: b!.id, idApp: 1 })).statusCode, 201);
      const full = await assign(c.id, c.token, { idUsuario: d!.id, idApp: 1 });
      assert.equal(full.statusCode, 409);
      assert.equal(full.json().code, 'SIN_PUESTOS');
      assert.equal(full.json().message, 'No quedan puestos libres de Control Max 360 en la licencia de la empresa');
      assert.equal((await licence(c.id, 1)).seatsInUse, 2);
      assert.equal((await seatsOf(c.id)).length, 2);
      const audited = await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.companyId, c.id), eq(auditLog.action, 'company.seat_assign')))
        .orderBy(auditLog.id);
      assert.equal(audited.length, 2);
      // Who got the seat, as the company's administrator reads it: the address beside the id.
      const [who] = await t.app.db.select({ email: users.email }).from(users).where(eq(users.id, a!.id));
      assert.deepEqual(audited[0]?.details, { userId: a!.id, email: who?.email, appId: 1 });
    });

    it('refuses a seat held already, an expired licence, no licence, an outsider and a pending member', async () => {
      const c = await company();
      await insertLicence(t.app, c.id, 1, 5);
      await insertLicence(t.app, c.id, 2, 5, new Date(Date.now() - dayMs));
      const outsider = await insertMember(
        t.app,
        await insertCompany(t.app, `Otra ${c.tag}`),
        `fuera-${c.tag}@x.test`,
        'miembro',
      );
      const pending = await insertMember(t.app, c.id, `espera-${c.tag}@andina.test`, 'miembro', 'pending_approval');
      const [a] = c.people;
      assert.equal((await assign(c.id, c.token, { idUsuario: a!.id, idApp: 1 })).statusCode, 201);
      const before = await seatsOf(c.id);
      const cases: Array<[unknown, number, string, string]> = [
        [{ idUsuario: a!.id, idApp: 1 }, 409, 'PUESTO_EXISTENTE', 'Esa persona ya tiene un puesto de esta app'],
        [{ idUsuario: a!.id, idApp: 2 }, 409, 'LICENCIA_VENCIDA', ''],
        [{ idUsuario: a!.id, idApp: 3 }, 404, 'LICENCIA_NO_ENCONTRADA', ''],
        [{ idUsuario: outsider.id, idApp: 1 }, 404, 'MIEMBRO_NO_ENCONTRADO', 'Esa persona no es miembro de la empresa'],
        [{ idUsuario: 2_000_000_000, idApp: 1 }, 404, 'MIEMBRO_NO_ENCONTRADO', ''],
        [{ idUsuario: pending.id, idApp: 1 }, 409, 'MIEMBRO_PENDIENTE', ''],
      ];
      for (const [body, status, code, message] of cases) {
        const response = await assign(c.id, c.token, body);
        assert.equal(response.statusCode, status, `${JSON.stringify(body)}: ${response.body}`);
        assert.equal(response.json().code, code);
        if (message) assert.equal(response.json().message, message);
        else assert.ok(response.json().message.length > 10);
      }
      assert.deepEqual(await seatsOf(c.id), before, 'nothing changed');
      assert.equal((await licence(c.id, 1)).seatsInUse, 1);
    });

    it('refuses bad input in Spanish (400), changing nothing', async () => {
      const c = await company();
      await insertLicence(t.app, c.id, 1, 5);
      const [a] = c.people;
      for (const body of [
        {},
        { idUsuario: a!.id },
        { idUsuario: String(a!.id), idApp: '1' },
        { idUsuario: a!.id, idApp: 0 },
        { idUsuario: -1, idApp: 1 },
        { idUsuario: a!.id, idApp: 1.5 },
        { idUsuario: a!.id, idApp: 2 ** 31 },
        { idUsuario: a!.id, idApp: 1, extra: true },
        [],
        null,
      ]) {
        const response = await assign(c.id, c.token, body);
        assert.equal(response.statusCode, 400, `${JSON.stringify(body)}: ${response.body}`);
        assert.equal(typeof response.json().message, 'string');
      }
      assert.equal((await seatsOf(c.id)).length, 0);
      assert.equal((await licence(c.id, 1)).seatsInUse, 0);
    });

    it('a licence lowered below its seats in use keeps them, shows the excess and assigns no more', async () => {
      const c = await company();
      await insertLicence(t.app, c.id, 1, 3);
      for (const person of c.people) {
        assert.equal((await assign(c.id, c.token, { idUsuario: person.id, idApp: 1 })).statusCode, 201);
      }
      await t.app.db
        .update(companyLicences)
        .set({ seats: 1 })
        .where(and(eq(companyLicences.companyId, c.id), eq(companyLicences.appId, 1)));
      const extra = await insertMember(t.app, c.id, `nuevo-${c.tag}@andina.test`, 'miembro');
      const refused = await assign(c.id, c.token, { idUsuario: extra.id, idApp: 1 });
      assert.equal(refused.json().code, 'SIN_PUESTOS');
      const report = (await call(t.app, 'GET', `/empresas/${c.id}/informe-puestos`, c.token)).json();
      assert.equal(report[0].enUso, 3);
      assert.equal(report[0].libres, 0);
      assert.equal(report[0].excedidos, 2);
      assert.equal((await seatsOf(c.id)).length, 3, 'no seat was taken back by itself');
    });
  });

  describe('taking back', () => {
    it('takes a seat back (204) and the count goes down; again is 404 PUESTO_NO_ENCONTRADO', async () => {
      const c = await company();
      await insertLicence(t.app, c.id, 1, 1);
      const [a, b] = c.people;
      assert.equal((await assign(c.id, c.token, { idUsuario: a!.id, idApp: 1 })).statusCode, 201);
      const url = `/empresas/${c.id}/puestos/${a!.id}/1`;
      assert.equal((await call(t.app, 'DELETE', url, c.token)).statusCode, 204);
      assert.equal((await licence(c.id, 1)).seatsInUse, 0);
      const again = await call(t.app, 'DELETE', url, c.token);
      assert.equal(again.statusCode, 404);
      assert.equal(again.json().code, 'PUESTO_NO_ENCONTRADO');
      assert.equal(again.json().message, 'Esa persona no tiene un puesto de esta app');
      assert.equal((await assign(c.id, c.token, { idUsuario: b!.id, idApp: 1 })).statusCode, 201, 'the seat is free');
      assert.equal((await call(t.app, 'DELETE', `/empresas/${c.id}/puestos/${a!.id}/abc`, c.token)).statusCode, 400);
    });
  });

  describe('the list', () => {
    it('pages by cursor over apps and people, filters by app and by part of the email', async () => {
      const c = await company(4);
      await insertLicence(t.app, c.id, 1, 10);
      await insertLicence(t.app, c.id, 2, 10);
      for (const idApp of [2, 1]) {
        for (const person of c.people) {
          assert.equal((await assign(c.id, c.token, { idUsuario: person.id, idApp })).statusCode, 201);
        }
      }
      const seen: SeatPage['data'] = [];
      let cursor: string | null = null;
      do {
        const page: SeatPage = (
          await call(t.app, 'GET', `/empresas/${c.id}/puestos?limit=3${cursor ? `&cursor=${cursor}` : ''}`, c.token)
        ).json();
        assert.equal(page.total, 8);
        seen.push(...page.data);
        cursor = page.siguiente;
      } while (cursor);
      const ids = c.people.map((person) => person.id);
      assert.deepEqual(
        seen.map((seat) => [seat.idApp, seat.idUsuario]),
        [...ids.map((id) => [1, id]), ...ids.map((id) => [2, id])],
      );
      assert.equal(seen[0]!.email, c.people[0]!.email);
      const ofApp: SeatPage = (await call(t.app, 'GET', `/empresas/${c.id}/puestos?idApp=2`, c.token)).json();
      assert.equal(ofApp.total, 4);
      assert.ok(ofApp.data.every((seat) => seat.idApp === 2));
      const byEmail: SeatPage = (
        await call(t.app, 'GET', `/empresas/${c.id}/puestos?email=P1-${c.tag}`, c.token)
      ).json();
      assert.equal(byEmail.total, 2);
      assert.deepEqual(
        byEmail.data.map((seat) => seat.idUsuario),
        [c.people[1]!.id, c.people[1]!.id],
      );
      const bad = await call(
        t.app,
        'GET',
        `/empresas/${c.id}/puestos?cursor=${Buffer.from('[1]').toString('base64url')}`,
        c.token,
      );
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().code, 'INVALID_CURSOR');
    });
  });

  describe('the seat report', () => {
    it('per app and plan: bought, in use, free, expiring within 30 days, expired', async () => {
      const c = await company();
      await insertLicence(t.app, c.id, 1, 4, new Date(Date.now() + 10 * dayMs));
      await insertLicence(t.app, c.id, 2, 2, new Date(Date.now() + 90 * dayMs));
      await insertLicence(t.app, c.id, 3, 1, new Date(Date.now() - dayMs));
      assert.equal((await assign(c.id, c.token, { idUsuario: c.people[0]!.id, idApp: 1 })).statusCode, 201);
      const response = await call(t.app, 'GET', `/empresas/${c.id}/informe-puestos`, c.token);
      assert.equal(response.statusCode, 200, response.body);
      const rows = response.json<Array<Record<string, unknown>>>();
      assert.deepEqual(
        rows.map(({ app, plan, comprados, enUso, libres, excedidos, vencePronto, vencida }) => ({
          app: (app as { nombre: string }).nombre,
          plan: (plan as { nombre: string }).nombre,
          comprados,
          enUso,
          libres,
          excedidos,
          vencePronto,
          vencida,
        })),
        [
          {
            app: 'Control Max 360',
            plan: 'PRO',
            comprados: 4,
            enUso: 1,
            libres: 3,
            excedidos: 0,
            vencePronto: true,
            vencida: false,
          },
          {
            app: 'Beto Pro',
            plan: 'PRO',
            comprados: 2,
            enUso: 0,
            libres: 2,
            excedidos: 0,
            vencePronto: false,
            vencida: false,
          },
          {
            app: 'TX30',
            plan: 'PRO',
            comprados: 1,
            enUso: 0,
            libres: 1,
            excedidos: 0,
            vencePronto: false,
            vencida: true,
          },
        ],
      );
    });

    it('downloads as CSV: BOM, Spanish header, RFC 4180 quoting, formulas defused', async () => {
      const c = await company();
      await insertLicence(t.app, c.id, 1, 4, new Date('2031-03-05T00:00:00Z'));
      await insertLicence(t.app, c.id, 2, 2, new Date('2031-06-30T00:00:00Z'));
      // Names an administrator typed: a comma and quotes, and one a spreadsheet would run as a formula.
      await t.app.db.update(apps).set({ nombre: '=HYPERLINK("http://x.test","clic")' }).where(eq(apps.id, 2));
      await t.app.db
        .update(plans)
        .set({ nombre: 'PRO, "anual"' })
        .where(and(eq(plans.appId, 1), eq(plans.nombre, 'PRO')));
      try {
        const response = await call(t.app, 'GET', `/empresas/${c.id}/informe-puestos.csv`, c.token);
        assert.equal(response.statusCode, 200, response.body);
        assert.match(String(response.headers['content-type']), /^text\/csv; charset=utf-8/);
        assert.equal(response.headers['content-disposition'], `attachment; filename="puestos-${c.id}.csv"`);
        const bytes = response.rawPayload;
        assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 BOM');
        const lines = bytes.subarray(3).toString('utf8').split('\r\n');
        assert.deepEqual(lines, [
          'App;Plan;Puestos comprados;En uso;Libres;Excedidos;Fecha de vencimiento;Vence pronto;Vencida;Roles;Esperando',
          'Control Max 360;"PRO, ""anual""";4;0;4;0;2031-03-05;No;No;;0',
          `"'=HYPERLINK(""http://x.test"",""clic"")";PRO;2;0;2;0;2031-06-30;No;No;;0`,
          '',
        ]);
      } finally {
        await t.app.db.update(apps).set({ nombre: 'Beto Pro' }).where(eq(apps.id, 2));
        await t.app.db
          .update(plans)
          .set({ nombre: 'PRO' })
          .where(and(eq(plans.appId, 1), eq(plans.nombre, 'PRO, "anual"')));
      }
    });

    it('is refused to a member (403) and to another company’s administrator (403); a platform administrator reads it', async () => {
      const c = await company();
      const other = await company();
      for (const path of ['informe-puestos', 'informe-puestos.csv', 'puestos']) {
        assert.equal(
          (await call(t.app, 'GET', `/empresas/${c.id}/${path}`, await c.people[0]!.token())).statusCode,
          403,
        );
        assert.equal((await call(t.app, 'GET', `/empresas/${c.id}/${path}`, other.token)).statusCode, 403);
        assert.equal((await call(t.app, 'GET', `/empresas/${c.id}/${path}`, admin)).statusCode, 200);
      }
    });
  });
});
