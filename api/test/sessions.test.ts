// Sessions (docs/decisions/0013-session-rows.md): every token belongs to a session row; its owner lists and ends it, an
// administrator too (on record in the audit log); an ended session's token and the partner tokens minted from it are
// refused at once, by every instance; a sign-in from a device not seen before queues 'Nuevo inicio de sesión'.
// Attackers use plain HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { auditLog, sessions } from '../src/db/schema.js';
import type { OutgoingMail } from '../src/domain/mail/mailer.js';
import { createTokenService, type TokenService } from '../src/domain/sessions/verify.js';
import { describeClient } from '../src/domain/sessions/sessions.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';

const chromeLinux =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const firefoxWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const safariIphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('describeClient', () => {
  it('names device, browser and system in Spanish, and never leaves one empty', () => {
    assert.deepEqual(describeClient(chromeLinux), { device: 'Computadora', browser: 'Chrome', os: 'Linux' });
    assert.deepEqual(describeClient(safariIphone), { device: 'Móvil', browser: 'Safari', os: 'iOS' });
    assert.deepEqual(describeClient(undefined), {
      device: 'Dispositivo desconocido',
      browser: 'Navegador desconocido',
      os: 'Sistema desconocido',
    });
    const odd = describeClient('x'.repeat(5000));
    assert.ok(odd.browser.length > 0 && odd.browser.length <= 100);
  });
});

forEachBackend((backend) => {
  let t: TestApp;
  /** Another API instance over the same database. */
  let other: TokenService;
  /** What the mailer handed to its transport. */
  const sent: OutgoingMail[] = [];
  before(async () => {
    t = await buildTestApp(
      backend,
      { trustProxy: ['127.0.0.1'] },
      {
        mailTransport: {
          async send(mail) {
            sent.push(mail);
          },
        },
      },
    );
    other = createTokenService(t.app.db, t.signingKey, {
      ttlSeconds: t.app.config.tokenTtlSeconds,
      partnerTtlSeconds: t.app.config.partnerTokenTtlSeconds,
      issuer: t.app.config.apiPublicUrl,
    });
  });
  after(() => t.close());

  const password = 'clave-de-sesiones';
  const signIn = async (email: string, userAgent: string, forwardedFor = '198.51.100.7') => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'user-agent': userAgent, 'x-forwarded-for': forwardedFor },
      payload: { email, password },
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().access_token as string;
  };
  const as = (token: string, method: 'GET' | 'DELETE' | 'POST', url: string) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` } });
  const newSignInMails = async (email: string) => {
    await t.app.mailer.deliverDue();
    return sent.filter((mail) => mail.to === email && mail.subject === 'Nuevo inicio de sesión');
  };

  it('lists my sessions with device, browser, address and dates, marking this one', async () => {
    await createUser(t.app, { email: 'lista@portal.test', password, status: 'active' });
    const first = await signIn('lista@portal.test', chromeLinux, '198.51.100.7');
    const second = await signIn('lista@portal.test', firefoxWindows, '203.0.113.20');
    const response = await as(second, 'GET', '/auth/sessions');
    assert.equal(response.statusCode, 200);
    const list = response.json() as Array<Record<string, unknown>>;
    assert.equal(list.length, 2);
    const mine = list.find((s) => s.current);
    assert.equal(mine?.label, 'Firefox en Windows');
    assert.equal(mine?.address, '203.0.113.20');
    assert.equal(mine?.device, 'Computadora');
    const elsewhere = list.find((s) => !s.current);
    assert.equal(elsewhere?.label, 'Chrome en Linux');
    assert.equal(elsewhere?.address, '198.51.100.7', 'the forwarded address, as trust-proxy says');
    assert.ok(!Number.isNaN(Date.parse(String(elsewhere?.createdAt))));
    assert.ok(!Number.isNaN(Date.parse(String(elsewhere?.lastSeenAt))));
    // The id is the token's jti: 32 random bytes, not a counter.
    assert.match(String(elsewhere?.id), /^[A-Za-z0-9_-]{43}$/);
    assert.equal(
      (await as(first, 'GET', '/auth/sessions')).json().filter((s: { current: boolean }) => s.current).length,
      1,
    );
  });

  it('ending a session refuses its token and its partner tokens at once, on every instance', async () => {
    await createUser(t.app, { email: 'cierre@portal.test', password, status: 'active' });
    const phone = await signIn('cierre@portal.test', safariIphone);
    const laptop = await signIn('cierre@portal.test', chromeLinux);
    const phoneSession = await t.app.tokens.verify(phone);
    const { token: partner } = await t.app.tokens.signPartner(phoneSession!, 'https://socio.example.com');
    assert.ok(await other.verify(partner, ['partner']), 'the partner token works first');
    assert.equal((await as(phone, 'GET', '/auth/user')).statusCode, 200);

    const ended = await as(laptop, 'DELETE', `/auth/sessions/${phoneSession!.sessionId}`);
    assert.equal(ended.statusCode, 204);
    assert.equal((await as(phone, 'GET', '/auth/user')).statusCode, 401);
    assert.equal(await other.verify(phone), null);
    assert.equal(await other.verify(partner, ['partner']), null);
    const partnerCall = await t.app.inject({
      method: 'GET',
      url: '/auth/user',
      headers: { authorization: `Bearer ${partner}` },
    });
    assert.equal(partnerCall.statusCode, 401);
    // Ending it again: nothing left to end.
    const again = await as(laptop, 'DELETE', `/auth/sessions/${phoneSession!.sessionId}`);
    assert.equal(again.statusCode, 404);
    assert.equal(again.json().message, 'Sesión no encontrada');
    assert.equal((await as(laptop, 'GET', '/auth/sessions')).json().length, 1);
  });

  it('closes all the other sessions, keeping this one; logout ends its own row', async () => {
    await createUser(t.app, { email: 'otras@portal.test', password, status: 'active' });
    const a = await signIn('otras@portal.test', chromeLinux);
    const b = await signIn('otras@portal.test', firefoxWindows);
    const c = await signIn('otras@portal.test', safariIphone);
    const response = await as(c, 'POST', '/auth/sessions/cerrar-otras');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { ended: 2 });
    assert.equal((await as(a, 'GET', '/auth/user')).statusCode, 401);
    assert.equal((await as(b, 'GET', '/auth/user')).statusCode, 401);
    assert.equal((await as(c, 'GET', '/auth/user')).statusCode, 200);

    const { sessionId } = (await t.app.tokens.verify(c))!;
    assert.equal((await as(c, 'POST', '/auth/logout')).statusCode, 204);
    const [row] = await t.app.db.select().from(sessions).where(eq(sessions.id, sessionId));
    assert.ok(row?.endedAt, 'logout ends the session row');
    assert.equal((await as(c, 'GET', '/auth/user')).statusCode, 401);
  });

  it("attack: a user can neither list nor end another user's session", async () => {
    await createUser(t.app, { email: 'victima@portal.test', password, status: 'active' });
    await createUser(t.app, { email: 'atacante@portal.test', password, status: 'active' });
    const victim = await signIn('victima@portal.test', chromeLinux);
    const attacker = await signIn('atacante@portal.test', firefoxWindows);
    const victimSession = (await t.app.tokens.verify(victim))!.sessionId;

    const list = (await as(attacker, 'GET', '/auth/sessions')).json() as Array<{ id: string }>;
    assert.ok(!list.some((s) => s.id === victimSession));
    const ended = await as(attacker, 'DELETE', `/auth/sessions/${victimSession}`);
    assert.equal(ended.statusCode, 404, "another user's session is as unknown as a made-up one");
    assert.equal((await as(victim, 'GET', '/auth/user')).statusCode, 200);
    // Not an administrator: the admin calls answer 403 and change nothing.
    const [victimRow] = await t.app.db.select().from(sessions).where(eq(sessions.id, victimSession));
    const adminList = await as(attacker, 'GET', `/admin/users/${victimRow!.userId}/sessions`);
    assert.equal(adminList.statusCode, 403);
    const adminEnd = await as(attacker, 'DELETE', `/admin/users/${victimRow!.userId}/sessions/${victimSession}`);
    assert.equal(adminEnd.statusCode, 403);
    assert.equal((await as(victim, 'GET', '/auth/user')).statusCode, 200);
    // Without a token, nothing.
    const anonymous = await t.app.inject({ method: 'GET', url: '/auth/sessions' });
    assert.equal(anonymous.statusCode, 401);
    // A malformed id is a Spanish 400, never a 500.
    const bad = await as(attacker, 'DELETE', '/auth/sessions/%27%3B%20drop%20table');
    assert.equal(bad.statusCode, 400);
  });

  it("an administrator lists and ends a user's sessions, each end in the audit log", async () => {
    const userId = await createUser(t.app, { email: 'administrada@portal.test', password, status: 'active' });
    const token = await signIn('administrada@portal.test', chromeLinux);
    const admin = await login(t.app);
    const list = await as(admin, 'GET', `/admin/users/${userId}/sessions`);
    assert.equal(list.statusCode, 200);
    const [session] = list.json() as Array<{ id: string; label: string; current: boolean }>;
    assert.equal(session?.label, 'Chrome en Linux');
    assert.equal(session?.current, false);

    const ended = await as(admin, 'DELETE', `/admin/users/${userId}/sessions/${session!.id}`);
    assert.equal(ended.statusCode, 204);
    assert.equal((await as(token, 'GET', '/auth/user')).statusCode, 401);
    const audit = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.session_end'), eq(auditLog.targetId, userId)));
    assert.equal(audit.length, 1);
    assert.equal(audit[0]?.actorEmail, 'admin@portal.test');
    assert.equal(audit[0]?.details.browser, 'Chrome');

    // A session of someone else through this user's URL: 404, nothing ended, nothing recorded.
    const otherId = await createUser(t.app, { email: 'ajena@portal.test', password, status: 'active' });
    const otherToken = await signIn('ajena@portal.test', chromeLinux);
    const otherSession = (await t.app.tokens.verify(otherToken))!.sessionId;
    const wrong = await as(admin, 'DELETE', `/admin/users/${userId}/sessions/${otherSession}`);
    assert.equal(wrong.statusCode, 404);
    assert.equal((await as(otherToken, 'GET', '/auth/user')).statusCode, 200);
    assert.ok(otherId);
    const unknownUser = await as(admin, 'GET', '/admin/users/2147483000/sessions');
    assert.equal(unknownUser.statusCode, 404);
    assert.equal(unknownUser.json().message, 'Usuario no encontrado');
  });

  it('mails "Nuevo inicio de sesión" for a device not seen before, and only then', async () => {
    await createUser(t.app, { email: 'aviso@portal.test', password, status: 'active' });
    await signIn('aviso@portal.test', chromeLinux);
    assert.equal((await newSignInMails('aviso@portal.test')).length, 0, 'the first session ever sends none');
    await signIn('aviso@portal.test', chromeLinux, '203.0.113.99');
    assert.equal((await newSignInMails('aviso@portal.test')).length, 0, 'same device and browser: no mail');
    await signIn('aviso@portal.test', firefoxWindows, '203.0.113.50');
    const mails = await newSignInMails('aviso@portal.test');
    assert.equal(mails.length, 1);
    assert.match(mails[0]!.text, /Dispositivo: Computadora/);
    assert.match(mails[0]!.text, /Navegador: Firefox en Windows/);
    assert.match(mails[0]!.text, /Dirección: 203\.0\.113\.50/);
    assert.match(mails[0]!.text, /Si no fuiste tú, cambia tu contraseña/);
  });

  it('a password change ends the other sessions in the list too', async () => {
    await createUser(t.app, { email: 'nueva-clave@portal.test', password, status: 'active' });
    await signIn('nueva-clave@portal.test', chromeLinux);
    const current = await signIn('nueva-clave@portal.test', firefoxWindows);
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/auth/update-password',
      headers: { authorization: `Bearer ${current}`, 'user-agent': firefoxWindows },
      payload: { currentPassword: password, newPassword: 'otra-clave-segura-1' },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    const fresh = changed.json().access_token as string;
    const list = (await as(fresh, 'GET', '/auth/sessions')).json() as Array<{ current: boolean }>;
    assert.equal(list.length, 1);
    assert.equal(list[0]?.current, true);
  });
});
