// Inviting a list of people at once (`POST /empresas/:id/invitaciones/lote`): a result per row, each row exactly as
// the single invitation, seats promised no further than the licence has free, and the invitation mails of the hour
// sized to the company's seats without becoming a bulk mailer. Mails go through a real SMTP conversation. On each
// backend.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import { apps, auditLog, companyInvitations, companySeats } from '../src/db/schema.js';
import { type ListRow, inviteList } from '../src/domain/companies/invitation-lists.js';
import { manualClock, post, registration } from './helpers/accounts.js';
import { adminEmail, buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';
import { call, insertCompany, insertLicence, insertMember, userIdOf } from './helpers/company-fixtures.js';
import { codeInReceived, decodeQuotedPrintable, type SmtpSink, startSink, textPart } from './helpers/smtp-sink.js';

interface RowResult {
  fila: number;
  email: string;
  resultado: string;
  idInvitacion?: number;
  codigo?: string;
  mensaje?: string;
  retryAfter?: number;
}

const limitMessage = /^Se enviaron demasiadas invitaciones en la última hora\. Podrás enviar más en \d+ minutos?\.$/;

forEachBackend((backend) => {
  let t: TestApp;
  let sink: SmtpSink;
  // Starts at the real time: the fixtures' sessions are dated by the wall clock.
  const clock = manualClock(Date.now());
  let appA: { id: number; nombre: string };
  let appB: { id: number; nombre: string };

  before(async () => {
    sink = await startSink();
    t = await buildTestApp(
      backend,
      {
        smtpUrl: `smtp://127.0.0.1:${sink.port}`,
        portalUrl: 'https://portal.example.com',
        tokenTtlSeconds: 30 * 24 * 60 * 60,
        authRateLimitPerMinute: 1000,
        // The lists here are long on a shared machine: the deadline's share is its own test, below.
        requestTimeoutMs: 120_000,
      },
      { clock },
    );
    const seeded = await t.app.db.select({ id: apps.id, nombre: apps.nombre }).from(apps).orderBy(asc(apps.id));
    assert.ok(seeded.length >= 2, 'the seed has two apps at least');
    [appA, appB] = [seeded[0]!, seeded[1]!];
  });
  after(async () => {
    await t.close();
    await sink.close();
  });
  // The hour's mails of one test must not hold the next.
  beforeEach(() => clock.advance(2 * 60 * 60_000));

  let n = 0;
  /** A company of its own for each case, with an owner and an administrator; its invitees at a domain of its own. */
  async function company(seats: { appId: number; seats: number; expiresAt?: Date }[] = []) {
    const tag = `${backend}-${++n}`;
    const id = await insertCompany(t.app, `Planta ${tag} S.A.`);
    const owner = await insertMember(t.app, id, `duena-${tag}@planta.test`, 'propietario');
    const manager = await insertMember(t.app, id, `jefe-${tag}@planta.test`, 'administrador');
    for (const licence of seats) await insertLicence(t.app, id, licence.appId, licence.seats, licence.expiresAt);
    const domain = `@op-${tag}.test`;
    return { id, owner, manager, domain, at: (name: string) => `${name}${domain}` };
  }
  const sendList = (companyId: number, token: string | undefined, body: unknown) =>
    call(t.app, 'POST', `/empresas/${companyId}/invitaciones/lote`, token, body);
  async function list(companyId: number, token: string, filas: unknown[]): Promise<RowResult[]> {
    const response = await sendList(companyId, token, { filas });
    assert.equal(response.statusCode, 200, response.body);
    const { resultados } = response.json<{ resultados: RowResult[] }>();
    assert.equal(resultados.length, filas.length, 'a result per row');
    assert.deepEqual(
      resultados.map((row) => row.fila),
      filas.map((_, i) => i + 1),
      'in the order sent',
    );
    return resultados;
  }
  /** The mails the SMTP server received for addresses ending in `domain`. */
  async function mailsAt(domain: string) {
    await t.app.mailer.deliverDue();
    return sink.received.filter((mail) => mail.to.some((to) => to.endsWith(domain)));
  }
  const invitationsOf = (companyId: number) =>
    t.app.db
      .select()
      .from(companyInvitations)
      .where(eq(companyInvitations.companyId, companyId))
      .orderBy(asc(companyInvitations.id));
  const outcomes = (results: RowResult[]) =>
    results.reduce<Record<string, number>>((counts, row) => {
      const key = row.codigo && row.resultado === 'error' ? `error:${row.codigo}` : row.resultado;
      counts[key] = (counts[key] ?? 0) + 1;
      return counts;
    }, {});
  const emails = (count: number, at: (name: string) => string, name = 'op') =>
    Array.from({ length: count }, (_, i) => at(`${name}${i}`));

  describe('a list', () => {
    it('answers a result per row in order, each row as the single invitation; one mail per invitation over SMTP', async () => {
      const c = await company([{ appId: appA.id, seats: 10 }]);
      const member = await insertMember(t.app, c.id, c.at('ya-dentro'), 'miembro');
      const owner = await c.owner.token();
      const pending = await call(t.app, 'POST', `/empresas/${c.id}/invitaciones`, owner, {
        email: c.at('pendiente'),
        rol: 'miembro',
      });
      assert.equal(pending.statusCode, 201, pending.body);

      const results = await list(c.id, owner, [
        { email: `  ${c.at('Ana').toUpperCase()} `, rol: 'miembro', idApp: appA.id },
        { email: member.email, rol: 'miembro' },
        { email: c.at('pendiente'), rol: 'administrador' },
        { email: 'no es un email', rol: 'miembro' },
        { email: c.at('beto'), rol: 'jefe de turno' },
        { email: c.at('carla'), rol: 'administrador', idApp: appB.id },
        { email: c.at('ana'), rol: 'miembro' },
        { email: c.at('dario'), rol: 'propietario' },
      ]);
      const ana = c.at('ana');
      assert.equal(results[0]?.resultado, 'invitada');
      assert.equal(typeof results[0]?.idInvitacion, 'number');
      assert.deepEqual(
        results.slice(1).map(({ idInvitacion: _id, ...rest }) => rest),
        [
          {
            fila: 2,
            email: member.email,
            resultado: 'ya_miembro',
            codigo: 'YA_ES_MIEMBRO',
            mensaje: 'Esa dirección ya es de un miembro de la empresa',
          },
          {
            fila: 3,
            email: c.at('pendiente'),
            resultado: 'ya_invitada',
            codigo: 'INVITACION_PENDIENTE',
            mensaje: 'Esa dirección ya tiene una invitación pendiente: reenvíala o revócala',
          },
          {
            fila: 4,
            email: 'no es un email',
            resultado: 'error',
            codigo: 'EMAIL_INVALIDO',
            mensaje: 'El email no es válido: escribe una dirección como nombre@empresa.com',
          },
          {
            fila: 5,
            email: c.at('beto'),
            resultado: 'error',
            codigo: 'ROL_INVALIDO',
            mensaje: "El rol 'jefe de turno' no existe: usa propietario, administrador o miembro",
          },
          {
            fila: 6,
            email: c.at('carla'),
            resultado: 'error',
            codigo: 'LICENCIA_NO_ENCONTRADA',
            mensaje: 'La empresa no tiene licencia de esta app',
          },
          {
            fila: 7,
            email: ana,
            resultado: 'ya_invitada',
            codigo: 'INVITACION_PENDIENTE',
            mensaje: 'Esa dirección ya tiene una invitación pendiente: reenvíala o revócala',
          },
          { fila: 8, email: c.at('dario'), resultado: 'invitada' },
        ],
      );
      assert.deepEqual(results[0], {
        fila: 1,
        email: ana,
        resultado: 'invitada',
        idInvitacion: results[0]?.idInvitacion,
      });

      // The rows written: the pending one before, Ana with her seat's app, Darío as owner. Nothing for the others.
      const rows = await invitationsOf(c.id);
      assert.deepEqual(
        rows.map((row) => [row.email, row.role, row.appId]),
        [
          [c.at('pendiente'), 'miembro', null],
          [ana, 'miembro', appA.id],
          [c.at('dario'), 'propietario', null],
        ],
      );
      // Each invitation is audited as the single one is, the seat's app with it.
      const audited = await t.app.db
        .select({ details: auditLog.details })
        .from(auditLog)
        .where(and(eq(auditLog.companyId, c.id), eq(auditLog.action, 'company.invitation_create')));
      assert.deepEqual(
        audited.map((entry) => entry.details).filter((details) => details.email === ana),
        [{ invitationId: results[0]?.idInvitacion, email: ana, role: 'miembro', appId: appA.id }],
      );
      // One mail per invitation, through a real SMTP conversation: who invited by their proved address or name,
      // never anything typed into the list.
      const mails = await mailsAt(c.domain);
      assert.deepEqual(mails.map((mail) => mail.to).sort(), [[ana], [c.at('dario')], [c.at('pendiente')]]);
      const toAna = mails.find((mail) => mail.to.includes(ana))!;
      const text = decodeQuotedPrintable(textPart(toAna.data));
      assert.match(text, new RegExp(`te invita a unirte a Planta ${backend}-\\d+ S\\.A\\. en el portal`));
      assert.doesNotMatch(decodeQuotedPrintable(toAna.data), /jefe de turno|no es un email/);

      // Ana accepts with the mailed code and gets the seat the row named.
      const anaAccount = await insertMember(t.app, await insertCompany(t.app, `Otra ${ana}`), ana, 'miembro');
      const code = codeInReceived(toAna);
      assert.ok(code);
      const accepted = await call(t.app, 'POST', '/empresas/invitaciones/aceptar', await anaAccount.token(), {
        codigo: code,
        email: ana,
      });
      assert.equal(accepted.statusCode, 200, accepted.body);
      const seats = await t.app.db
        .select({ appId: companySeats.appId })
        .from(companySeats)
        .where(and(eq(companySeats.companyId, c.id), eq(companySeats.userId, anaAccount.id)));
      assert.deepEqual(seats, [{ appId: appA.id }]);
    });

    it('a wholly bad body is a Spanish 400 that changes nothing; only the managers of the company and the platform send one', async () => {
      const c = await company();
      const owner = await c.owner.token();
      const bad: [unknown, string][] = [
        [{}, "Datos inválidos: falta el campo 'filas'"],
        [{ filas: [] }, 'Envía al menos una fila'],
        [
          { filas: emails(501, c.at).map((email) => ({ email, rol: 'miembro' })) },
          'Envía como máximo 500 filas por petición: divide la lista en varias',
        ],
        [
          {
            filas: [
              { email: c.at('a'), rol: 'miembro' },
              { email: 5, rol: 'miembro' },
            ],
          },
          "Datos inválidos: 'filas.1.email' debe ser un texto",
        ],
        [
          { filas: [{ email: c.at('a'), rol: 'miembro', idApp: 'Control' }] },
          "Datos inválidos: 'filas.0.idApp' debe ser un número entero",
        ],
        [
          { filas: [{ email: c.at('a'), rol: 'miembro', nombre: 'Ana' }] },
          "Datos inválidos: el campo 'filas.0.nombre' no está permitido",
        ],
        [{ filas: 'a@b.c, miembro' }, "Datos inválidos: 'filas' debe ser una lista"],
      ];
      for (const [body, message] of bad) {
        const response = await sendList(c.id, owner, body);
        assert.equal(response.statusCode, 400, JSON.stringify(body).slice(0, 80));
        assert.equal(response.json().message, message);
      }
      const notJson = await t.app.inject({
        method: 'POST',
        url: `/empresas/${c.id}/invitaciones/lote`,
        headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
        payload: '{"filas": [',
      });
      assert.equal(notJson.statusCode, 400);
      assert.equal(notJson.json().message, 'El cuerpo de la petición no es un JSON válido');
      assert.equal((await invitationsOf(c.id)).length, 0);
      assert.equal((await mailsAt(c.domain)).length, 0);

      const filas = [{ email: c.at('x'), rol: 'miembro' }];
      const member = await insertMember(t.app, c.id, c.at('miembro'), 'miembro');
      assert.equal((await sendList(c.id, await member.token(), { filas })).statusCode, 403);
      const outsider = await insertMember(
        t.app,
        await insertCompany(t.app, `Ajena ${c.id}`),
        c.at('ajena'),
        'propietario',
      );
      assert.equal((await sendList(c.id, await outsider.token(), { filas })).statusCode, 403);
      assert.equal((await sendList(c.id, undefined, { filas })).statusCode, 401);
      assert.equal((await invitationsOf(c.id)).length, 0);
      // An administrator of the company sends one; an owner among its rows is for an owner to invite.
      const asManager = await list(c.id, await c.manager.token(), [
        { email: c.at('y'), rol: 'administrador' },
        { email: c.at('z'), rol: 'propietario' },
      ]);
      assert.deepEqual(
        asManager.map((row) => [row.resultado, row.codigo, row.mensaje]),
        [
          ['invitada', undefined, undefined],
          ['error', 'FORBIDDEN', 'Solo un propietario de la empresa puede invitar a un propietario'],
        ],
      );
      const platform = await list(c.id, await login(t.app, adminEmail), [{ email: c.at('z'), rol: 'propietario' }]);
      assert.equal(platform[0]?.resultado, 'invitada');
    });

    it('promises no more seats of an app than its licence has free; a licence that expired promises none', async () => {
      const c = await company([{ appId: appA.id, seats: 3 }]);
      const owner = await c.owner.token();
      // One of the three is in use.
      const holder = await insertMember(t.app, c.id, c.at('titular'), 'miembro');
      const given = await call(t.app, 'POST', `/empresas/${c.id}/puestos`, owner, {
        idUsuario: holder.id,
        idApp: appA.id,
      });
      assert.equal(given.statusCode, 201, given.body);

      const rows = emails(4, c.at).map((email) => ({ email, rol: 'miembro', idApp: appA.id }));
      const results = await list(c.id, owner, rows);
      assert.deepEqual(
        results.map((row) => [row.resultado, row.codigo ?? null]),
        [
          ['invitada', null],
          ['invitada', null],
          ['error', 'SIN_PUESTOS'],
          ['error', 'SIN_PUESTOS'],
        ],
      );
      assert.equal(
        results[2]?.mensaje,
        `Las invitaciones pendientes ya reservan los 2 puestos libres de ${appA.nombre}: revoca alguna o pide más puestos`,
      );
      // Without the seat the same person is invited; revoking a promise frees it for the next.
      assert.equal((await list(c.id, owner, [{ email: rows[2]!.email, rol: 'miembro' }]))[0]?.resultado, 'invitada');
      const revoked = await call(t.app, 'DELETE', `/empresas/${c.id}/invitaciones/${results[0]?.idInvitacion}`, owner);
      assert.equal(revoked.statusCode, 204);
      const single = await call(t.app, 'POST', `/empresas/${c.id}/invitaciones`, owner, {
        email: rows[3]!.email,
        rol: 'miembro',
        idApp: appA.id,
      });
      assert.equal(single.statusCode, 201, single.body);
      assert.equal(single.json().idApp, appA.id);
      const full = await call(t.app, 'POST', `/empresas/${c.id}/invitaciones`, owner, {
        email: c.at('otra'),
        rol: 'miembro',
        idApp: appA.id,
      });
      assert.equal(full.statusCode, 409);
      assert.equal(full.json().code, 'SIN_PUESTOS');

      // Two invitations at once for the last free seat: the licence's lock lets one promise it.
      const race = await company([{ appId: appB.id, seats: 1 }]);
      const raceOwner = await race.owner.token();
      const answers = await Promise.all(
        ['uno', 'dos'].map((name) =>
          call(t.app, 'POST', `/empresas/${race.id}/invitaciones`, raceOwner, {
            email: race.at(name),
            rol: 'miembro',
            idApp: appB.id,
          }),
        ),
      );
      assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [201, 409]);

      const lapsed = await company([{ appId: appB.id, seats: 5, expiresAt: new Date(clock() - 60_000) }]);
      const [row] = await list(lapsed.id, await lapsed.owner.token(), [
        { email: lapsed.at('a'), rol: 'miembro', idApp: appB.id },
      ]);
      assert.deepEqual([row?.resultado, row?.codigo], ['error', 'LICENCIA_VENCIDA']);
      assert.equal((await invitationsOf(lapsed.id)).length, 0);
    });

    it("a registration by the invitation's code gets the seat too, in the same transaction", async () => {
      const c = await company([{ appId: appB.id, seats: 2 }]);
      const email = c.at('nueva');
      const [row] = await list(c.id, await c.owner.token(), [{ email, rol: 'miembro', idApp: appB.id }]);
      assert.equal(row?.resultado, 'invitada');
      const [mail] = await mailsAt(email);
      const code = mail ? codeInReceived(mail) : undefined;
      assert.ok(code, 'the invitation mail carries its code');
      const registered = await post(t.app, '/auth/register', registration(email, { codigoInvitacion: code }));
      assert.equal(registered.statusCode, 201, registered.body);
      const seats = await t.app.db
        .select({ appId: companySeats.appId })
        .from(companySeats)
        .where(and(eq(companySeats.companyId, c.id), eq(companySeats.userId, await userIdOf(t.app, email))));
      assert.deepEqual(seats, [{ appId: appB.id }]);
    });

    it('a seat taken meanwhile: the invitee still joins, without it, and the audit says so', async () => {
      const c = await company([{ appId: appA.id, seats: 1 }]);
      const owner = await c.owner.token();
      const email = c.at('tarde');
      const [row] = await list(c.id, owner, [{ email, rol: 'miembro', idApp: appA.id }]);
      assert.equal(row?.resultado, 'invitada');
      // An administrator gives the only seat by hand before the invitee accepts.
      const other = await insertMember(t.app, c.id, c.at('primero'), 'miembro');
      const given = await call(t.app, 'POST', `/empresas/${c.id}/puestos`, owner, {
        idUsuario: other.id,
        idApp: appA.id,
      });
      assert.equal(given.statusCode, 201, given.body);
      const invitee = await insertMember(t.app, await insertCompany(t.app, `Otra ${email}`), email, 'miembro');
      const accepted = await call(t.app, 'POST', '/empresas/invitaciones/aceptar', await invitee.token(), {
        idInvitacion: row?.idInvitacion,
      });
      assert.equal(accepted.statusCode, 200, accepted.body);
      const seats = await t.app.db
        .select({ userId: companySeats.userId })
        .from(companySeats)
        .where(eq(companySeats.companyId, c.id));
      assert.deepEqual(seats, [{ userId: other.id }]);
      const [entry] = await t.app.db
        .select({ details: auditLog.details })
        .from(auditLog)
        .where(and(eq(auditLog.companyId, c.id), eq(auditLog.action, 'company.invitation_accept')));
      assert.deepEqual(entry?.details, {
        invitationId: row?.idInvitacion,
        email,
        role: 'miembro',
        userId: await userIdOf(t.app, email),
        appId: appA.id,
        seated: false,
      });
    });
  });

  describe('the invitation mails of the hour', () => {
    it('a company with few seats cannot send hundreds: 20 of one inviter, 50 of the company, the rest refused per row', async () => {
      const c = await company([{ appId: appA.id, seats: 5 }]);
      const attempted = emails(300, c.at, 'masivo').map((email) => ({ email, rol: 'miembro' }));
      const results = await list(c.id, await c.owner.token(), attempted);
      assert.deepEqual(outcomes(results), { invitada: 20, 'error:INVITATION_MAIL_LIMIT': 280 });
      assert.ok(results.slice(0, 20).every((row) => row.resultado === 'invitada'));
      for (const row of results.slice(20)) {
        assert.match(row.mensaje ?? '', limitMessage);
        assert.ok((row.retryAfter ?? 0) > 0 && (row.retryAfter ?? 0) <= 3600, String(row.retryAfter));
      }
      // Other administrators of the company have their own 20 and share its 50.
      const more = await list(
        c.id,
        await c.manager.token(),
        emails(40, c.at, 'segunda').map((email) => ({ email, rol: 'miembro' })),
      );
      assert.deepEqual(outcomes(more), { invitada: 20, 'error:INVITATION_MAIL_LIMIT': 20 });
      const third = await insertMember(t.app, c.id, c.at('tercera-admin'), 'administrador');
      const last = await list(
        c.id,
        await third.token(),
        emails(15, c.at, 'tercera').map((email) => ({ email, rol: 'miembro' })),
      );
      assert.deepEqual(outcomes(last), { invitada: 10, 'error:INVITATION_MAIL_LIMIT': 5 });
      // What left the portal: 50 mails, 50 invitations, no more.
      assert.equal((await mailsAt(c.domain)).length, 50);
      assert.equal((await invitationsOf(c.id)).length, 50);
      // An hour later the company invites again.
      clock.advance(60 * 60_000);
      const [later] = await list(c.id, await c.owner.token(), [{ email: c.at('despues'), rol: 'miembro' }]);
      assert.equal(later?.resultado, 'invitada');
    });

    it("is counted per company: another company's mails do not hold this one, also for the platform administrator", async () => {
      const first = await company();
      const second = await company();
      const admin = await login(t.app, adminEmail);
      const rows = (at: (name: string) => string) => emails(21, at).map((email) => ({ email, rol: 'miembro' }));
      assert.deepEqual(outcomes(await list(first.id, admin, rows(first.at))), {
        invitada: 20,
        'error:INVITATION_MAIL_LIMIT': 1,
      });
      assert.deepEqual(outcomes(await list(second.id, admin, rows(second.at))), {
        invitada: 20,
        'error:INVITATION_MAIL_LIMIT': 1,
      });
      // The single invitation too: the first company's hour is spent, the second's owner is not held by it.
      const single = (companyId: number, token: string, email: string) =>
        call(t.app, 'POST', `/empresas/${companyId}/invitaciones`, token, { email, rol: 'miembro' });
      assert.equal((await single(first.id, admin, first.at('una-mas'))).statusCode, 429);
      assert.equal((await single(second.id, await second.owner.token(), second.at('suya'))).statusCode, 201);
      assert.equal((await mailsAt(first.domain)).length, 20);
      assert.equal((await mailsAt(second.domain)).length, 21);
    });

    it('is as large as the seats the company bought (unexpired licences): the single invitation obeys the same rule', async () => {
      const c = await company([
        { appId: appA.id, seats: 40 },
        { appId: appB.id, seats: 20 },
      ]);
      const owner = await c.owner.token();
      const single = (email: string) =>
        call(t.app, 'POST', `/empresas/${c.id}/invitaciones`, owner, { email, rol: 'miembro' });
      const statuses: number[] = [];
      for (const email of emails(61, c.at, 'una')) statuses.push((await single(email)).statusCode);
      assert.deepEqual(statuses, [...Array(60).fill(201), 429]);
      const refused = await single(c.at('otra'));
      assert.equal(refused.json().code, 'INVITATION_MAIL_LIMIT');
      assert.match(refused.json().message, limitMessage);
      // The company's 60 of the hour are spent for its other administrators as well.
      const [row] = await list(c.id, await c.manager.token(), [{ email: c.at('del-jefe'), rol: 'miembro' }]);
      assert.equal(row?.codigo, 'INVITATION_MAIL_LIMIT');
      assert.equal((await mailsAt(c.domain)).length, 60);

      // Seats of an expired licence are no longer bought: the floors hold.
      const lapsed = await company([{ appId: appA.id, seats: 500, expiresAt: new Date(clock() - 60_000) }]);
      const results = await list(
        lapsed.id,
        await lapsed.owner.token(),
        emails(21, lapsed.at).map((email) => ({ email, rol: 'miembro' })),
      );
      assert.deepEqual(outcomes(results), { invitada: 20, 'error:INVITATION_MAIL_LIMIT': 1 });
    });
  });

  describe('a row not reached', () => {
    /** The list's caller as the route hands it over: the company's owner, acting on their company. */
    const asOwner = async (companyId: number, email: string) => ({
      actor: { user: { id: await userIdOf(t.app, email), email } },
      access: { companyId, platform: false as const, role: 'propietario' as const, status: 'active' as const },
    });

    it('past its share of the deadline, the rows left are NO_PROCESADA and nothing of them is written or mailed', async () => {
      const c = await company();
      const { actor, access } = await asOwner(c.id, c.owner.email);
      const rows: ListRow[] = emails(5, c.at).map((email) => ({ email, rol: 'miembro' }));
      let started = 0;
      const results = await inviteList(t.app, actor, access, rows, {
        stillInTime: () => ++started < 3,
        failed: () => assert.fail('nothing failed'),
      });
      assert.deepEqual(
        results.map((row) => [row.fila, row.resultado, row.codigo ?? null]),
        [
          [1, 'invitada', null],
          [2, 'invitada', null],
          [3, 'invitada', null],
          [4, 'error', 'NO_PROCESADA'],
          [5, 'error', 'NO_PROCESADA'],
        ],
      );
      assert.equal(results[3]?.mensaje, 'Esta fila no se llegó a procesar y no se envió nada: envíala de nuevo.');
      assert.deepEqual(
        (await invitationsOf(c.id)).map((row) => row.email),
        rows.slice(0, 3).map((row) => row.email),
      );
      assert.equal((await mailsAt(c.domain)).length, 3);
    });

    it('a failure of the database stops the list: the rows done stay done, that row and the rest are answered as not done', async () => {
      const c = await company();
      const { actor, access } = await asOwner(c.id, c.owner.email);
      const rows: ListRow[] = emails(4, c.at).map((email) => ({ email, rol: 'miembro' }));
      let transactions = 0;
      const failing = {
        transaction: (work: (tx: Db) => Promise<unknown>) =>
          ++transactions === 2 ? Promise.reject(new Error('la base de datos se cayó')) : t.app.db.transaction(work),
      } as unknown as Db;
      const failures: unknown[] = [];
      const { clock: appClock, signingKey, mailer, limits, config } = t.app;
      const results = await inviteList(
        { db: failing, clock: appClock, signingKey, mailer, limits, config },
        actor,
        access,
        rows,
        { stillInTime: () => true, failed: (error) => failures.push(error) },
      );
      assert.deepEqual(
        results.map((row) => [row.resultado, row.codigo ?? null, row.mensaje ?? null]),
        [
          ['invitada', null, null],
          ['error', 'ERROR_INTERNO', 'Error interno del servidor'],
          ['error', 'NO_PROCESADA', 'Esta fila no se llegó a procesar y no se envió nada: envíala de nuevo.'],
          ['error', 'NO_PROCESADA', 'Esta fila no se llegó a procesar y no se envió nada: envíala de nuevo.'],
        ],
      );
      assert.equal(failures.length, 1);
      assert.deepEqual(
        (await invitationsOf(c.id)).map((row) => row.email),
        [rows[0]!.email],
      );
      assert.equal((await mailsAt(c.domain)).length, 1);
    });
  });
});
