// Each instance remembers the tokens whose signature it has checked (the costly part of a signed-in request). These
// say what must not be remembered with them: a second instance over the same database refuses a token the moment it
// is revoked, outdated or suspended through the first, and a remembered token still dies at its expiry.
import assert from 'node:assert/strict';
import { after, before, it, mock } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { users } from '../src/db/schema.js';
import { createTokenService, type TokenService } from '../src/domain/sessions/verify.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';

forEachBackend((backend) => {
  let t: TestApp;
  /** Another API instance: its own memory of checked tokens, the same database. */
  let other: TokenService;
  before(async () => {
    t = await buildTestApp(backend);
    other = createTokenService(t.app.db, t.signingKey, {
      ttlSeconds: t.app.config.tokenTtlSeconds,
      partnerTtlSeconds: t.app.config.partnerTokenTtlSeconds,
      issuer: t.app.config.apiPublicUrl,
    });
  });
  after(() => t.close());

  const signIn = async (email: string) => {
    const id = await createUser(t.app, { email, password: 'clave-de-sesion', status: 'active' });
    const token = await login(t.app, email, 'clave-de-sesion');
    assert.equal((await other.verify(token))?.user.email, email, 'the other instance accepts it first');
    return { id, token };
  };

  it('a token logged out on one instance is refused by the other at once', async () => {
    const { token } = await signIn('salida@portal.test');
    const logout = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(logout.statusCode, 204);
    assert.equal(await other.verify(token), null);
  });

  it('a partner token minted on one instance is refused by the other once its session logs out, and never as a session', async () => {
    const { token } = await signIn('socio-instancias@portal.test');
    const session = await t.app.tokens.verify(token);
    const { token: partner } = await t.app.tokens.signPartner(session!, 'https://socio.example.com');
    assert.equal(await other.verify(partner), null, 'not a portal session');
    assert.equal((await other.verify(partner, ['partner']))?.audience, 'https://socio.example.com');
    assert.equal(await other.verify(token, ['partner']), null, 'a session is not a partner token');
    const logout = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(logout.statusCode, 204);
    assert.equal(await other.verify(partner, ['partner']), null);
  });

  it('a suspension or a token_version bump is refused by the other instance at once', async () => {
    const suspended = await signIn('suspendida@portal.test');
    await t.app.db.update(users).set({ status: 'suspended' }).where(eq(users.id, suspended.id));
    assert.equal(await other.verify(suspended.token), null);

    const outdated = await signIn('cambio-de-clave@portal.test');
    await t.app.db
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, outdated.id));
    assert.equal(await other.verify(outdated.token), null);
  });

  it('a token already checked is refused once its expiry passes', async () => {
    const { id, token: signedIn } = await signIn('caduca@portal.test');
    const now = Math.floor(Date.now() / 1000);
    // A token of the same live session row, with a short expiry.
    const { sessionId } = (await other.verify(signedIn))!;
    const token = await new SignJWT({ role: 2, tv: 0 })
      .setProtectedHeader({ alg: 'ES256', kid: t.signingKey.kid })
      .setSubject(String(id))
      .setJti(sessionId)
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(t.signingKey.privateKey);
    assert.equal((await other.verify(token))?.user.id, id);
    mock.timers.enable({ apis: ['Date'], now: (now + 60) * 1000 });
    try {
      assert.equal(await other.verify(token), null);
    } finally {
      mock.timers.reset();
    }
  });
});
