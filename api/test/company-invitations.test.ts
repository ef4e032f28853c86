import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { auditLog, companyDomains, companyInvitations, companyMembers, users } from '../src/db/schema.js';
import { capturingTransport, codeIn, mailsTo, manualClock, post, registration } from './helpers/accounts.js';
import { adminEmail, buildTestApp, forEachBackend, login, type TestApp } from './helpers/app.js';
import { call, insertCompany, insertMember } from './helpers/company-fixtures.js';

const day = 24 * 60 * 60_000;

forEachBackend((backend) => {
  let t: TestApp;
  const transport = capturingTransport();
  // Starts at the real time: the fixtures' sessions are dated by the wall clock.
  const clock = manualClock(Date.now());
  let companyId: number;
  let owner: Awaited<ReturnType<typeof insertMember>>;
  let manager: Awaited<ReturnType<typeof insertMember>>;
  let n = 0;

  before(async () => {
    t = await buildTestApp(
      backend,
      {
        authRateLimitPerMinute: 1000,
        portalUrl: 'https://portal.example.com',
        tokenTtlSeconds: 30 * 24 * 60 * 60,
        redirectAllowList: ['https://socio.example.com'],
      },
      { mailTransport: transport, clock },
    );
    companyId = await insertCompany(t.app, 'Minera Andina S.A.');
    owner = await insertMember(t.app, companyId, 'duena@minera.test', 'propietario');
    manager = await insertMember(t.app, companyId, 'jefe@minera.test', 'administrador');
  });
  after(() => t.close());
  // Cooldowns and hourly limits of one test must not leak into the next.
  beforeEach(() => clock.advance(2 * 60 * 60_000));

  /** A fresh address for each case. */
  const address = (name: string) => `${name}.${++n}@invitada.test`;
  const inviteAs = async (token: string, email: string, rol = 'miembro') =>
    call(t.app, 'POST', `/empresas/${companyId}/invitaciones`, token, { email, rol });
  /** Invites `email` as the owner and answers the invitation and the code its mail carries. */
  async function invited(email: string, rol = 'miembro') {
    const response = await inviteAs(await owner.token(), email, rol);
    assert.equal(response.statusCode, 201, response.body);
    const mails = await mailsTo(t.app, transport, email);
    return { invitation: response.json<{ id: number }>(), code: codeIn(mails.at(-1)), mails };
  }
  const invitationRow = async (id: number) =>
    (await t.app.db.select().from(companyInvitations).where(eq(companyInvitations.id, id)))[0];
  const membership = async (email: string) =>
    t.app.db
      .select({ role: companyMembers.role })
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(and(eq(companyMembers.companyId, companyId), eq(users.email, email)));
  const accept = (token: string, body: unknown) => call(t.app, 'POST', '/empresas/invitaciones/aceptar', token, body);
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  const account = async (email: string) =>
    insertMember(t.app, await insertCompany(t.app, `Otra ${email}`), email, 'miembro');

  describe('attacks', () => {
    it('another signed-in account holding the link gets the 400 of a wrong code, counted against it; nothing changes', async () => {
      const email = address('victima');
      const { invitation, code } = await invited(email);
      const intruder = await account(address('intruso'));
      const token = await intruder.token();

      const withLink = await accept(token, { codigo: code, email });
      assert.equal(withLink.statusCode, 400);
      assert.equal(withLink.json().code, 'INVITACION_INVALIDA');
      const codeOnly = await accept(token, { codigo: code });
      assert.equal(codeOnly.statusCode, 400);
      assert.equal(codeOnly.json().code, 'INVITACION_INVALIDA');
      const byId = await accept(token, { idInvitacion: invitation.id });
      assert.equal(byId.statusCode, 400);
      assert.deepEqual(byId.json(), withLink.json(), 'the same answer whatever the way');
      assert.equal(
        (await call(t.app, 'POST', '/empresas/invitaciones/aceptar', undefined, { codigo: '123456' })).statusCode,
        401,
      );
      assert.equal((await invitationRow(invitation.id))?.attempts, 0);
      assert.equal((await invitationRow(invitation.id))?.acceptedAt, null);
    });

    /** A request from another machine (`from`), as an attacker sends it with plain HTTP calls. */
    const acceptFrom = (from: string, token: string, body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/empresas/invitaciones/aceptar',
        remoteAddress: from,
        headers: { authorization: `Bearer ${token}` },
        payload: body as object,
      });
    const registerFrom = (from: string, body: unknown) =>
      t.app.inject({ method: 'POST', url: '/auth/register', remoteAddress: from, payload: body as object });
    const guess = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
    /** The statuses of `times` calls, in order, with runs of one status folded: [[400, 20], [429, 5]]. */
    const statuses = async (times: number, send: (i: number) => Promise<{ statusCode: number }>) => {
      const runs: [number, number][] = [];
      for (let i = 0; i < times; i++) {
        const { statusCode } = await send(i);
        const last = runs.at(-1);
        if (last?.[0] === statusCode) last[1] += 1;
        else runs.push([statusCode, 1]);
      }
      return runs;
    };

    it("a stranger's wrong codes with the invitee's address neither expire nor lock the invitation: they count against the stranger", async () => {
      const email = address('objetivo');
      const { invitation, code } = await invited(email);
      const invitee = await account(email);
      // Signed in as themselves, from one machine: 20 wrong codes of the day, then 429; the code is never compared.
      const intruder = await (await account(address('adivino'))).token();
      const sent = await statuses(25, (i) => acceptFrom('203.0.113.10', intruder, { codigo: guess(code, i), email }));
      assert.deepEqual(sent, [
        [400, 20],
        [429, 5],
      ]);
      const locked = await acceptFrom('203.0.113.10', intruder, { codigo: code, email });
      assert.equal(locked.json().code, 'CODE_GUESSES_EXCEEDED');
      // Another of its accounts from another machine: the first account's count follows it, the machine's too.
      const second = await (await account(address('adivino-2'))).token();
      assert.deepEqual(
        await statuses(21, (i) => acceptFrom('203.0.113.11', second, { codigo: guess(code, i), email })),
        [
          [400, 20],
          [429, 1],
        ],
      );
      assert.equal((await acceptFrom('203.0.113.11', intruder, { codigo: code, email })).statusCode, 429);
      // The invitation is as it was: pending, no try taken; the invitee, after six wrong codes of their own, gets in.
      const list = await call(t.app, 'GET', `/empresas/${companyId}/invitaciones`, await owner.token());
      assert.equal(
        list.json<{ id: number; estado: string }[]>().find((e) => e.id === invitation.id)?.estado,
        'pendiente',
      );
      const own = await invitee.token();
      assert.deepEqual(await statuses(6, (i) => acceptFrom('198.51.100.20', own, { codigo: guess(code, i) })), [
        [400, 6],
      ]);
      const accepted = await acceptFrom('198.51.100.20', own, { codigo: code, email });
      assert.equal(accepted.statusCode, 200, accepted.body);
      assert.deepEqual(await membership(email), [{ role: 'miembro' }]);
    });

    it('a registration with guessed codes: limited per machine and per address; the invitee then registers and accepts', async () => {
      const email = address('sin-cuenta');
      const { invitation, code } = await invited(email);
      // One machine: 20 wrong codes, then 429; nothing created.
      assert.deepEqual(
        await statuses(22, (i) =>
          registerFrom('203.0.113.20', registration(email, { codigoInvitacion: guess(code, i) })),
        ),
        [
          [400, 20],
          [429, 2],
        ],
      );
      // Another machine: the address's 20 wrong codes of the day are spent, so a code for it is not compared at all,
      // and the answer tells the invitee the other way in (a guesser spread over many machines gets no more tries).
      const resting = await registerFrom('203.0.113.21', registration(email, { codigoInvitacion: code }));
      assert.equal(resting.statusCode, 429, resting.body);
      assert.equal(resting.json().code, 'CODE_GUESSES_EXCEEDED');
      assert.match(
        resting.json().message,
        /^Se probaron demasiados códigos para este correo\. Crea tu cuenta sin el código/,
      );
      assert.equal((await t.app.db.select().from(users).where(eq(users.email, email))).length, 0);
      // The invitation is untouched: the invitee registers with a verification code and accepts it signed in.
      assert.equal((await invitationRow(invitation.id))?.attempts, 0);
      const invitee = await account(email);
      const accepted = await acceptFrom('198.51.100.21', await invitee.token(), { codigo: code, email });
      assert.equal(accepted.statusCode, 200, accepted.body);
    });

    it('a revoked or an expired invitation is refused, by code and by id', async () => {
      const revokedEmail = address('revocada');
      const revoked = await invited(revokedEmail);
      const gone = await call(
        t.app,
        'DELETE',
        `/empresas/${companyId}/invitaciones/${revoked.invitation.id}`,
        await manager.token(),
      );
      assert.equal(gone.statusCode, 204);
      const revokedInvitee = await account(revokedEmail);
      const byCode = await accept(await revokedInvitee.token(), { codigo: revoked.code });
      assert.equal(byCode.statusCode, 400);
      assert.equal(byCode.json().code, 'INVITACION_INVALIDA');
      assert.equal(
        (await accept(await revokedInvitee.token(), { idInvitacion: revoked.invitation.id })).statusCode,
        400,
      );

      const expiredEmail = address('vencida');
      const expired = await invited(expiredEmail);
      const expiredInvitee = await account(expiredEmail);
      clock.advance(7 * day + 1);
      const late = await accept(await expiredInvitee.token(), { codigo: expired.code });
      assert.equal(late.statusCode, 400);
      assert.equal(late.json().code, 'INVITACION_INVALIDA');
      assert.equal(
        (await accept(await expiredInvitee.token(), { idInvitacion: expired.invitation.id })).statusCode,
        400,
      );
      assert.equal((await membership(revokedEmail)).length + (await membership(expiredEmail)).length, 0);
      // An expired pending invitation gives way to a new one.
      const again = await inviteAs(await owner.token(), expiredEmail);
      assert.equal(again.statusCode, 201, again.body);
    });

    it('two accepts at once: one membership, one 400', async () => {
      const email = address('doble');
      const { code } = await invited(email);
      const invitee = await account(email);
      const token = await invitee.token();
      const answers = await Promise.all([accept(token, { codigo: code }), accept(token, { codigo: code })]);
      assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 400]);
      assert.equal((await membership(email)).length, 1);
      const audits = await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'company.invitation_accept'), eq(auditLog.companyId, companyId)));
      assert.equal(audits.filter((entry) => entry.details.email === email).length, 1);
    });

    it('a resend within the cooldown is 429 with retryAfter; after it, a new code replaces the old', async () => {
      const email = address('reenvio');
      const { invitation, code } = await invited(email);
      const url = `/empresas/${companyId}/invitaciones/${invitation.id}/reenviar`;
      const early = await call(t.app, 'POST', url, await manager.token());
      assert.equal(early.statusCode, 429);
      assert.equal(early.json().code, 'CODE_COOLDOWN');
      assert.ok(early.json().retryAfter > 0 && early.json().retryAfter <= 60);
      assert.equal(early.headers['retry-after'], String(early.json().retryAfter));
      clock.advance(61_000);
      const resent = await call(t.app, 'POST', url, await manager.token());
      assert.equal(resent.statusCode, 200, resent.body);
      const fresh = codeIn((await mailsTo(t.app, transport, email)).at(-1));
      const invitee = await account(email);
      if (fresh !== code) assert.equal((await accept(await invitee.token(), { codigo: code })).statusCode, 400);
      assert.equal((await accept(await invitee.token(), { codigo: fresh })).statusCode, 200);
    });

    it('inviting a member or an address with a pending invitation: a Spanish 409, nothing changed', async () => {
      const member = await inviteAs(await owner.token(), manager.email.toUpperCase());
      assert.equal(member.statusCode, 409);
      assert.equal(member.json().code, 'YA_ES_MIEMBRO');
      assert.match(member.json().message, /ya es de un miembro/);

      // The final dot of the domain names the same address: the same member, the same pending invitation.
      const dotted = await inviteAs(await owner.token(), `${manager.email}.`);
      assert.equal(dotted.statusCode, 409, dotted.body);
      assert.equal(dotted.json().code, 'YA_ES_MIEMBRO');
      const email = address('pendiente');
      await invited(email);
      const before = await t.app.db.select().from(companyInvitations).where(eq(companyInvitations.email, email));
      const duplicate = await inviteAs(await manager.token(), ` ${email.toUpperCase()} `);
      assert.equal(duplicate.statusCode, 409);
      assert.equal(duplicate.json().code, 'INVITACION_PENDIENTE');
      assert.match(duplicate.json().message, /invitación pendiente/);
      const dottedDuplicate = await inviteAs(await manager.token(), `${email}.`);
      assert.equal(dottedDuplicate.statusCode, 409, dottedDuplicate.body);
      assert.equal(dottedDuplicate.json().code, 'INVITACION_PENDIENTE');
      const afterwards = await t.app.db.select().from(companyInvitations).where(eq(companyInvitations.email, email));
      assert.deepEqual(afterwards, before);
      assert.equal((await mailsTo(t.app, transport, email)).length, 1, 'no second mail');
    });

    it('only an owner or a platform administrator invites an owner; outsiders reach nothing', async () => {
      const byManager = await inviteAs(await manager.token(), address('socio'), 'propietario');
      assert.equal(byManager.statusCode, 403);
      assert.equal((await inviteAs(await owner.token(), address('socio'), 'propietario')).statusCode, 201);
      assert.equal((await inviteAs(await login(t.app, adminEmail), address('socio'), 'propietario')).statusCode, 201);

      const outsider = await account(address('fuera'));
      const token = await outsider.token();
      assert.equal((await inviteAs(token, address('x'))).statusCode, 403);
      assert.equal((await call(t.app, 'GET', `/empresas/${companyId}/invitaciones`, token)).statusCode, 403);
      const member = await insertMember(t.app, companyId, address('miembro'), 'miembro');
      assert.equal((await inviteAs(await member.token(), address('x'))).statusCode, 403);
      assert.equal(
        (await call(t.app, 'POST', '/empresas/invitaciones/aceptar', undefined, { codigo: '123456' })).statusCode,
        401,
      );
    });
    it("a partner app's token of the invitee neither lists, accepts nor declines", async () => {
      const email = address('socio');
      const { invitation, code } = await invited(email);
      const invitee = await account(email);
      const minted = await call(t.app, 'POST', '/auth/partner-token', await invitee.token(), {
        redirect_url: 'https://socio.example.com/',
      });
      assert.equal(minted.statusCode, 200, minted.body);
      const partner = minted.json<{ access_token: string }>().access_token;
      assert.equal((await call(t.app, 'GET', '/empresas/invitaciones/mias', partner)).statusCode, 401);
      assert.equal((await accept(partner, { codigo: code })).statusCode, 401);
      assert.equal((await accept(partner, { idInvitacion: invitation.id })).statusCode, 401);
      const declined = await call(t.app, 'POST', `/empresas/invitaciones/${invitation.id}/rechazar`, partner);
      assert.equal(declined.statusCode, 401);
      assert.equal((await invitationRow(invitation.id))?.attempts, 0);
      assert.equal((await membership(email)).length, 0);
    });
  });

  describe('as a spam or phishing channel', () => {
    it('a burst is held: 20 invitation mails an hour per inviter, 50 per company, then 429 in Spanish', async () => {
      const statuses = async (token: string, name: string, times: number) => {
        const seen: number[] = [];
        for (let i = 0; i < times; i++) seen.push((await inviteAs(token, address(name))).statusCode);
        return seen;
      };
      const ownerToken = await owner.token();
      const first = await statuses(ownerToken, 'rafaga', 21);
      assert.deepEqual(first, [...Array(20).fill(201), 429]);
      const refused = await inviteAs(ownerToken, address('rafaga'));
      assert.equal(refused.json().code, 'INVITATION_MAIL_LIMIT');
      assert.match(
        refused.json().message,
        /^Se enviaron demasiadas invitaciones en la última hora\. Podrás enviar más en \d+ minutos?\.$/,
      );
      assert.ok(Number(refused.headers['retry-after']) > 0);
      // Nothing was created for the refused ones: no row, no mail.
      const rows = await t.app.db.select().from(companyInvitations).where(eq(companyInvitations.companyId, companyId));
      assert.equal(rows.filter((row) => row.email.startsWith('rafaga.')).length, 20);
      // Other administrators of the company share its 50 of the hour.
      const third = await insertMember(t.app, companyId, address('tercera'), 'administrador');
      assert.deepEqual(await statuses(await manager.token(), 'rafaga-b', 20), Array(20).fill(201));
      assert.deepEqual(await statuses(await third.token(), 'rafaga-c', 11), [...Array(10).fill(201), 429]);
      // An hour later, the company invites again.
      clock.advance(60 * 60_000);
      assert.equal((await inviteAs(await third.token(), address('despues'))).statusCode, 201);
    });

    it("keeps link-shaped names out of the mail: an inviter's name that carries a link shows as their address alone", async () => {
      const phisher = await insertMember(t.app, companyId, address('suplantadora'), 'administrador');
      await t.app.db
        .update(users)
        .set({ name: 'Soporte: tu cuenta vence hoy, entra en https://portal-seguro.example/login', lastName: '' })
        .where(eq(users.email, phisher.email));
      const email = address('destinataria');
      assert.equal((await inviteAs(await phisher.token(), email)).statusCode, 201);
      const [mail] = await mailsTo(t.app, transport, email);
      assert.doesNotMatch(`${mail!.subject} ${mail!.text} ${mail!.html}`, /portal-seguro|vence hoy/);
      assert.ok(
        mail!.text.includes(`${phisher.email} te invita a unirte a Minera Andina S.A. en el portal`),
        mail!.text,
      );
      // A company whose name is shaped like a web address is named by what it is.
      const shop = await insertCompany(t.app, 'Ofertas-Minera.com');
      const shopOwner = await insertMember(t.app, shop, address('duena-tienda'), 'propietario');
      const other = address('cliente');
      const invited = await call(t.app, 'POST', `/empresas/${shop}/invitaciones`, await shopOwner.token(), {
        email: other,
        rol: 'miembro',
      });
      assert.equal(invited.statusCode, 201, invited.body);
      const [shopMail] = await mailsTo(t.app, transport, other);
      assert.equal(shopMail!.subject, 'Invitación a una empresa del portal');
      assert.doesNotMatch(`${shopMail!.text} ${shopMail!.html}`, /Ofertas-Minera\.com/);
    });
  });

  describe('the invitation', () => {
    it('is mailed with the code, the link, who invited, the role and the expiry; audited for the company', async () => {
      const email = address('Nueva');
      const response = await inviteAs(await owner.token(), `  ${email.toUpperCase()} `, 'administrador');
      assert.equal(response.statusCode, 201, response.body);
      const body = response.json();
      assert.deepEqual(Object.keys(body).sort(), ['email', 'enviadaEn', 'estado', 'id', 'rol', 'vence']);
      assert.equal(body.email, email.toLowerCase());
      assert.equal(body.estado, 'pendiente');
      assert.equal(body.rol, 'administrador');
      assert.equal(Date.parse(body.vence) - Date.parse(body.enviadaEn), 7 * day);

      const [mail, ...others] = await mailsTo(t.app, transport, email.toLowerCase());
      assert.equal(others.length, 0);
      const code = codeIn(mail);
      assert.equal(mail!.subject, 'Invitación a Minera Andina S.A.');
      assert.match(mail!.text, /duena@minera\.test/);
      assert.match(mail!.text, /Administrador/);
      assert.ok(
        mail!.text.includes(
          `https://portal.example.com/invitacion?codigo=${code}&email=${encodeURIComponent(email.toLowerCase())}`,
        ),
        mail!.text,
      );
      assert.match(mail!.text, /vence el/);
      assert.match(mail!.html, new RegExp(`>${code}<`));
      const row = await invitationRow(body.id);
      assert.ok(row && !row.codeHash.includes(code) && row.codeHash.length > 20, 'only the MAC is kept');
      const [audit] = await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'company.invitation_create'), eq(auditLog.companyId, companyId)))
        .orderBy(auditLog.id)
        .limit(1)
        .offset(0);
      assert.ok(audit);
    });

    it('a signed-in invitee sees it in mias, accepts it by id; another is declined', async () => {
      const email = address('notificada');
      const first = await invited(email, 'administrador');
      const otherCompany = await insertCompany(t.app, `Segunda ${email}`);
      const otherOwner = await insertMember(t.app, otherCompany, address('otra'), 'propietario');
      const second = await call(t.app, 'POST', `/empresas/${otherCompany}/invitaciones`, await otherOwner.token(), {
        email,
        rol: 'miembro',
      });
      assert.equal(second.statusCode, 201);
      const invitee = await account(email);
      const token = await invitee.token();
      const mine = await call(t.app, 'GET', '/empresas/invitaciones/mias', token);
      assert.equal(mine.statusCode, 200);
      assert.deepEqual(
        mine
          .json<{ id: number; empresa: { nombre: string }; rol: string }[]>()
          .map((entry) => [entry.id, entry.empresa.nombre, entry.rol])
          .sort(),
        [
          [first.invitation.id, 'Minera Andina S.A.', 'administrador'],
          [second.json().id, `Segunda ${email}`, 'miembro'],
        ].sort(),
      );
      const accepted = await accept(token, { idInvitacion: first.invitation.id });
      assert.equal(accepted.statusCode, 200);
      assert.deepEqual(await membership(email), [{ role: 'administrador' }]);
      const declined = await call(t.app, 'POST', `/empresas/invitaciones/${second.json().id}/rechazar`, token);
      assert.equal(declined.statusCode, 204);
      assert.deepEqual((await call(t.app, 'GET', '/empresas/invitaciones/mias', token)).json(), []);
      const list = await call(t.app, 'GET', `/empresas/${companyId}/invitaciones`, await manager.token());
      assert.equal(
        list.json<{ id: number; estado: string }[]>().find((e) => e.id === first.invitation.id)?.estado,
        'aceptada',
      );
    });
  });

  describe('registration with the invitation code', () => {
    it('makes an active member signed in at once, without a verification mail', async () => {
      const email = address('registro');
      const { code } = await invited(email, 'miembro');
      const response = await post(t.app, '/auth/register', registration(email, { codigoInvitacion: code }));
      assert.equal(response.statusCode, 201, response.body);
      const body = response.json();
      assert.deepEqual(Object.keys(body).sort(), ['access_token', 'email', 'empresa', 'rol', 'user']);
      assert.equal(body.email, email);
      assert.deepEqual(body.empresa, { id: companyId, nombre: 'Minera Andina S.A.' });
      assert.equal(body.user.status, 'active');
      assert.ok(body.user.planesUsuarios.length > 0, 'the free plans, as a verified registration');
      const me = await call(t.app, 'GET', '/auth/user', body.access_token);
      assert.equal(me.statusCode, 200);
      assert.equal(me.json().email, email);
      assert.deepEqual(await membership(email), [{ role: 'miembro' }]);
      // Only the invitation's mail ever went to the address.
      assert.equal((await mailsTo(t.app, transport, email)).length, 1);
      // The password typed is the account's.
      assert.ok(await login(t.app, email, 'clave-segura-1'));
      assert.equal(
        (await post(t.app, '/auth/register', registration(email, { codigoInvitacion: code }))).statusCode,
        409,
      );
    });

    it("at a company's proved domain, the invited role wins over the domain join's waiting member", async () => {
      const domainCompany = await insertCompany(t.app, 'Dominio Propio S.A.');
      await t.app.db.insert(companyDomains).values({
        companyId: domainCompany,
        domain: 'dominio-propio.test',
        verificationToken: 'x',
        verifiedAt: new Date(clock()),
        verifiedBy: 'admin',
      });
      const boss = await insertMember(t.app, domainCompany, address('jefa'), 'propietario');
      const email = `jefe.${++n}@dominio-propio.test`;
      const response = await call(t.app, 'POST', `/empresas/${domainCompany}/invitaciones`, await boss.token(), {
        email,
        rol: 'administrador',
      });
      assert.equal(response.statusCode, 201, response.body);
      const code = codeIn((await mailsTo(t.app, transport, email)).at(-1));
      const registered = await post(t.app, '/auth/register', registration(email, { codigoInvitacion: code }));
      assert.equal(registered.statusCode, 201, registered.body);
      const rows = await t.app.db
        .select({ role: companyMembers.role, status: companyMembers.status })
        .from(companyMembers)
        .where(eq(companyMembers.companyId, domainCompany));
      assert.deepEqual(rows.map((row) => `${row.role}/${row.status}`).sort(), [
        'administrador/active',
        'propietario/active',
      ]);
    });

    it('takes over a pending registration of the address: its password is the one typed with the code', async () => {
      const email = address('pendiente-reg');
      const pending = await post(t.app, '/auth/register', registration(email, { password: 'otra-clave-1' }));
      assert.equal(pending.statusCode, 201);
      const { code } = await invited(email);
      const response = await post(t.app, '/auth/register', registration(email, { codigoInvitacion: code }));
      assert.equal(response.statusCode, 201, response.body);
      assert.ok(await login(t.app, email, 'clave-segura-1'));
    });

    it('a wrong code creates nothing and counts against the address and the machine; an active account of the address is the usual 409', async () => {
      const email = address('equivocado');
      const { invitation, code } = await invited(email);
      const response = await post(t.app, '/auth/register', registration(email, { codigoInvitacion: wrong(code) }));
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'INVITACION_INVALIDA');
      assert.equal((await t.app.db.select().from(users).where(eq(users.email, email))).length, 0);
      assert.equal((await invitationRow(invitation.id))?.attempts, 0);
      const right = await post(t.app, '/auth/register', registration(email, { codigoInvitacion: code }));
      assert.equal(right.statusCode, 201, right.body);

      const holder = await account(address('activa'));
      const taken = await invited(holder.email);
      const existing = await post(
        t.app,
        '/auth/register',
        registration(holder.email, { codigoInvitacion: taken.code }),
      );
      assert.equal(existing.statusCode, 409);
      assert.equal(existing.json().code, 'EMAIL_IN_USE');
      assert.equal((await invitationRow(taken.invitation.id))?.acceptedAt, null);
    });
  });
});
