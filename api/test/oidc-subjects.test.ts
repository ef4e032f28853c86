// The subject (`sub`) partner apps know a person by, seen by openid-client as the relying party: an opaque uuid for a
// new client (never the account id, the same in every such app), an identifier of the app alone for 'por_cliente'
// (two apps cannot join their people), the account id for the clients registered before migration 0024; each stable
// across sign-ins, refreshes, userinfo and introspection, in id_token_hint checks and back-channel logout tokens; the
// per-client salt never answered or logged.
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { buildApp } from '../src/app.js';
import type { Database } from '../src/db/client.js';
import { auditLog, oidcClients, users } from '../src/db/schema.js';
import { hashPassword } from '../src/domain/accounts/passwords.js';
import { hashClientSecret } from '../src/domain/identity-provider/oidc/clients.js';
import {
  adminEmail,
  adminPassword,
  createUser,
  forEachBackend,
  login,
  testConfig,
  testSigningKey,
} from './helpers/app.js';
import { databaseBefore } from './helpers/database-before.js';
import { collectingLogs } from './helpers/logs.js';
import {
  claimsOf,
  codeFlow,
  type LogoutReceiver,
  type OidcTestApi,
  openidClient,
  portalUrl,
  registerClient,
  startLogoutReceiver,
  startOidcApi,
  TestBrowser,
  verifiedLogoutClaims,
} from './helpers/oidc.js';
import { freePort, waitFor } from './helpers/processes.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Client {
  clientId: string;
  clientSecret?: string;
  redirect: string;
  receiver: LogoutReceiver;
}
interface Person {
  id: number;
  email: string;
  password: string;
  publicId: string;
}

/** Signs a person in to an app in `browser` (a new one unless given), as the app would: its tokens. */
async function signIn(
  issuer: string,
  client: { clientId: string; clientSecret?: string },
  redirect: string,
  person: { email: string; password: string },
  app: Parameters<typeof login>[0],
  browser?: TestBrowser,
) {
  const config = await openidClient(issuer, client);
  const who = browser ?? new TestBrowser(issuer);
  who.portalToken ??= await login(app, person.email, person.password);
  const tokens = await codeFlow(config, who, redirect, 'openid email offline_access');
  return { config, tokens, browser: who, sub: String(tokens.claims()?.sub) };
}

/**
 * Every place the app reads the person's `sub`: the ID token at sign-in, userinfo (openid-client checks it against
 * the expected one, both times), introspection, and the ID token of a refresh.
 */
async function subjectsSeen(signedIn: Awaited<ReturnType<typeof signIn>>): Promise<string[]> {
  const { config, tokens, sub } = signedIn;
  const info = await oidc.fetchUserInfo(config, tokens.access_token, sub);
  // Asked again, userinfo is answered from the session memory (kept-userinfo.ts), by the same rule.
  assert.deepEqual(await oidc.fetchUserInfo(config, tokens.access_token, sub), info);
  const introspected = await oidc.tokenIntrospection(config, tokens.access_token);
  assert.equal(introspected.active, true);
  assert.ok(tokens.refresh_token);
  const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token);
  return [sub, info.sub, String(introspected.sub), String(refreshed.claims()?.sub)];
}

forEachBackend((backend) => {
  describe('OpenID Connect subjects', () => {
    let api: OidcTestApi;
    let admin: string;
    const logs = collectingLogs();
    const clients: Record<'opacoA' | 'opacoB' | 'porClienteA' | 'porClienteB' | 'numerico', Client> = {} as never;
    let serial = 0;

    async function newPerson(): Promise<Person> {
      serial += 1;
      const email = `persona${serial}@sujetos.test`;
      const password = `clave-de-sujeto-${serial}`;
      const id = await createUser(api.app, { email, password, status: 'active' });
      const [row] = await api.app.db.select({ publicId: users.publicId }).from(users).where(eq(users.id, id));
      assert.ok(row);
      return { id, email, password, publicId: row.publicId };
    }

    const signInTo = (name: keyof typeof clients, person: Person, browser?: TestBrowser) =>
      signIn(api.issuer, clients[name], clients[name].redirect, person, api.app, browser);

    const saltOf = async (clientId: string) => {
      const [row] = await api.app.db
        .select({ salt: oidcClients.subjectSalt })
        .from(oidcClients)
        .where(eq(oidcClients.clientId, clientId));
      return row?.salt ?? null;
    };

    const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      api.app.inject({ method, url, headers: { authorization: `Bearer ${admin}` }, ...(payload ? { payload } : {}) });

    before(async () => {
      // Many sign-ins of many people from one address: the sign-in limit is not what this suite is about.
      api = await startOidcApi(backend, { logLevel: 'info', loginRateLimitPerMinute: 1000 }, { logStream: logs });
      admin = await login(api.app, adminEmail, adminPassword);
      const kinds = {
        opacoA: undefined,
        opacoB: 'opaco',
        porClienteA: 'por_cliente',
        porClienteB: 'por_cliente',
        numerico: 'numerico',
      } as const;
      for (const [name, sujeto] of Object.entries(kinds)) {
        const receiver = await startLogoutReceiver();
        const redirect = `https://${name.toLowerCase()}.example.com/auth/callback`;
        const created = await registerClient(api.app, {
          nombre: `App ${name}`,
          redirectUris: [redirect],
          backchannelLogoutUri: receiver.url,
          primeraParte: true,
          scopes: ['openid', 'email', 'offline_access'],
          ...(sujeto ? { sujeto } : {}),
        });
        clients[name as keyof typeof clients] = { ...created, redirect, receiver };
      }
    });
    after(async () => {
      await api.close();
      for (const client of Object.values(clients)) await client.receiver.close();
    });

    it('a new client gets an opaque uuid, never the account id; two opaco clients see the same one, everywhere', async () => {
      const person = await newPerson();
      const first = await signInTo('opacoA', person);
      assert.match(first.sub, uuid);
      assert.notEqual(first.sub, String(person.id));
      assert.equal(first.sub, person.publicId);
      assert.deepEqual(await subjectsSeen(first), Array(4).fill(person.publicId));
      const again = await signInTo('opacoA', person);
      const other = await signInTo('opacoB', person, again.browser);
      assert.deepEqual(await subjectsSeen(again), Array(4).fill(person.publicId));
      assert.deepEqual(await subjectsSeen(other), Array(4).fill(person.publicId));
      assert.notEqual((await signInTo('opacoA', await newPerson())).sub, person.publicId, 'each person their own');
    });

    it('two por_cliente clients see different subjects, each stable everywhere and derived by the salt only', async () => {
      const person = await newPerson();
      const seenBy = async (name: 'porClienteA' | 'porClienteB') => {
        const first = await signInTo(name, person);
        const again = await signInTo(name, person, first.browser);
        const seen = [...(await subjectsSeen(first)), ...(await subjectsSeen(again))];
        assert.equal(new Set(seen).size, 1, `${name} sees one subject: ${seen.join(', ')}`);
        return first.sub;
      };
      const a = await seenBy('porClienteA');
      const b = await seenBy('porClienteB');
      assert.notEqual(a, b);
      for (const sub of [a, b]) {
        assert.notEqual(sub, person.publicId);
        assert.notEqual(sub, String(person.id));
        assert.match(sub, /^[A-Za-z0-9_-]{43}$/);
      }
      // Keycloak's and Zitadel's construction: an HMAC of the account's identifier under the client's own secret.
      const salt = await saltOf(clients.porClienteA.clientId);
      assert.ok(salt);
      assert.equal(a, createHmac('sha256', Buffer.from(salt, 'base64url')).update(person.publicId).digest('base64url'));
    });

    it('a numerico client keeps the account id', async () => {
      const person = await newPerson();
      const signedIn = await signInTo('numerico', person);
      assert.deepEqual(await subjectsSeen(signedIn), Array(4).fill(String(person.id)));
    });

    it('prompt=none with an id_token_hint of the signed-in person goes on, of another person asks to sign in', async () => {
      const person = await newPerson();
      const stranger = await newPerson();
      for (const name of ['opacoA', 'porClienteA', 'numerico'] as const) {
        const mine = await signInTo(name, person);
        const theirs = await signInTo(name, stranger);
        const silent = (hint: string) =>
          mine.browser.navigate(
            oidc.buildAuthorizationUrl(mine.config, {
              redirect_uri: clients[name].redirect,
              scope: 'openid',
              code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
              code_challenge_method: 'S256',
              prompt: 'none',
              id_token_hint: hint,
            }).href,
          );
        const own = new URL((await silent(mine.tokens.id_token ?? '')).url);
        assert.equal(own.origin + own.pathname, clients[name].redirect, name);
        assert.ok(own.searchParams.get('code'), `${name}: ${own.href}`);
        const other = new URL((await silent(theirs.tokens.id_token ?? '')).url);
        assert.equal(other.searchParams.get('error'), 'login_required', `${name}: ${other.href}`);
        assert.equal(other.searchParams.get('code'), null);
      }
    });

    it("a logout with the signed-in person's id_token_hint goes at once; with another person's, it asks", async () => {
      const person = await newPerson();
      const stranger = await newPerson();
      for (const name of ['opacoA', 'porClienteA', 'numerico'] as const) {
        const theirs = await signInTo(name, stranger);
        const mine = await signInTo(name, person);
        const page = async (hint: string) => {
          const response = await mine.browser.request(
            `${api.issuer}/oidc/session/end?id_token_hint=${encodeURIComponent(hint)}`,
          );
          assert.equal(response.status, 200);
          return response.text();
        };
        assert.match(await page(theirs.tokens.id_token ?? ''), /¿Cerrar sesión\?/, name);
        assert.match(await page(mine.tokens.id_token ?? ''), /Cerrando sesión\.\.\./, name);
      }
    });

    /** The logout token each app got for its session, verified; its `sub`. */
    async function logoutSubject(name: keyof typeof clients, sid: unknown): Promise<unknown> {
      const { receiver } = clients[name];
      const token = await waitFor(
        `the logout token of ${name}`,
        async () => {
          await api.app.identityProvider.logouts.deliverDue();
          return receiver.tokens.find((jwt) => claimsOf(jwt).sid === sid);
        },
        10_000,
      );
      return (await verifiedLogoutClaims(token, api.issuer)).sub;
    }

    it('a back-channel logout names the person by the sub the app got in its ID token, for each kind', async () => {
      const person = await newPerson();
      const names = ['opacoA', 'porClienteA', 'porClienteB', 'numerico'] as const;
      const browser = new TestBrowser(api.issuer);
      const signedIn = [];
      for (const name of names) signedIn.push(await signInTo(name, person, browser));
      const logout = await api.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: { authorization: `Bearer ${browser.portalToken}` },
      });
      assert.equal(logout.statusCode, 204);
      for (const [index, name] of names.entries()) {
        const { tokens, sub } = signedIn[index] as (typeof signedIn)[number];
        assert.equal(await logoutSubject(name, tokens.claims()?.sid), sub, name);
      }
    });

    it('the logout owed for a deleted account still names the person as the app knows them', async () => {
      const person = await newPerson();
      const browser = new TestBrowser(api.issuer);
      const opaque = await signInTo('opacoB', person, browser);
      const pairwise = await signInTo('porClienteB', person, browser);
      await api.app.db.delete(users).where(eq(users.id, person.id));
      assert.equal(await logoutSubject('opacoB', opaque.tokens.claims()?.sid), person.publicId);
      assert.equal(await logoutSubject('porClienteB', pairwise.tokens.claims()?.sid), pairwise.sub);
    });

    describe('administrators choose it', () => {
      it('a new client is opaco unless told; anything but the three kinds is a Spanish 400', async () => {
        const body = { nombre: 'Informes', redirectUris: ['https://informes.example.com/cb'] };
        const created = await call('POST', '/admin/clientes-oidc', body);
        assert.equal(created.statusCode, 201);
        const { clientId } = created.json<{ clientId: string }>();
        assert.equal((await call('GET', `/admin/clientes-oidc/${clientId}`)).json().sujeto, 'opaco');
        for (const sujeto of ['pairwise', 'Opaco', '', 'public']) {
          const refused = await call('POST', '/admin/clientes-oidc', { ...body, sujeto });
          assert.equal(refused.statusCode, 400);
          assert.deepEqual(refused.json(), {
            statusCode: 400,
            code: 'INVALID_CLIENT_METADATA',
            message: `El identificador de la persona '${sujeto}' no existe; puede ser numerico, opaco o por_cliente`,
          });
        }
        const wrong = await call('PUT', `/admin/clientes-oidc/${clientId}`, { ...body, sujeto: 'numérico' });
        assert.equal(wrong.statusCode, 400);
        assert.equal((await call('GET', `/admin/clientes-oidc/${clientId}`)).json().sujeto, 'opaco');
      });

      it('a change keeps the kind unless named; the salt is made once, kept, audited never', async () => {
        const body = { nombre: 'Planta', redirectUris: ['https://planta.example.com/cb'], primeraParte: true };
        const { clientId, clientSecret } = (await call('POST', '/admin/clientes-oidc', body)).json<{
          clientId: string;
          clientSecret: string;
        }>();
        assert.equal(await saltOf(clientId), null, 'no salt for an opaco client');
        const kept = await call('PUT', `/admin/clientes-oidc/${clientId}`, { ...body, nombre: 'Planta 2' });
        assert.equal(kept.json().sujeto, 'opaco');
        const pairwise = await call('PUT', `/admin/clientes-oidc/${clientId}`, { ...body, sujeto: 'por_cliente' });
        assert.equal(pairwise.statusCode, 200);
        assert.equal(pairwise.json().sujeto, 'por_cliente');
        const salt = await saltOf(clientId);
        assert.ok(salt);
        assert.equal(Buffer.from(salt, 'base64url').length, 32);

        const person = await newPerson();
        const redirect = 'https://planta.example.com/cb';
        const before = await signIn(api.issuer, { clientId, clientSecret }, redirect, person, api.app);
        await call('PUT', `/admin/clientes-oidc/${clientId}`, { ...body, sujeto: 'opaco' });
        assert.equal(await saltOf(clientId), salt);
        const opaque = await signIn(api.issuer, { clientId, clientSecret }, redirect, person, api.app);
        assert.equal(opaque.sub, person.publicId, 'a change of kind shows at the next sign-in');
        await call('PUT', `/admin/clientes-oidc/${clientId}`, { ...body, sujeto: 'por_cliente' });
        assert.equal(await saltOf(clientId), salt, 'never changed');
        const back = await signIn(api.issuer, { clientId, clientSecret }, redirect, person, api.app);
        assert.equal(back.sub, before.sub, 'back to por_cliente, the same identifiers');

        const audited = await api.app.db
          .select({ action: auditLog.action, details: auditLog.details })
          .from(auditLog)
          .where(sql`${auditLog.details}->>'clientId' = ${clientId}`)
          .orderBy(auditLog.id);
        assert.deepEqual(
          audited.map((row) => [row.action, (row.details as { sujeto: string }).sujeto]),
          [
            ['oidc_client.create', 'opaco'],
            ['oidc_client.update', 'opaco'],
            ['oidc_client.update', 'por_cliente'],
            ['oidc_client.update', 'opaco'],
            ['oidc_client.update', 'por_cliente'],
          ],
        );
        assert.deepEqual((audited[2]?.details as { fields?: string[] } | undefined)?.fields, ['nombre', 'sujeto']);
      });

      it('no salt in any admin answer, audit entry, protocol answer or log line', async () => {
        const salts = (await api.app.db.select({ salt: oidcClients.subjectSalt }).from(oidcClients))
          .map((row) => row.salt)
          .filter((salt): salt is string => salt !== null);
        assert.ok(salts.length >= 2);
        const person = await newPerson();
        const signedIn = await signInTo('porClienteA', person);
        const answers = [
          (await call('GET', '/admin/clientes-oidc')).body,
          (await call('GET', `/admin/clientes-oidc/${clients.porClienteA.clientId}`)).body,
          JSON.stringify(await oidc.fetchUserInfo(signedIn.config, signedIn.tokens.access_token, signedIn.sub)),
          JSON.stringify(await oidc.tokenIntrospection(signedIn.config, signedIn.tokens.access_token)),
          JSON.stringify(signedIn.tokens.claims()),
          await (await fetch(`${api.issuer}/.well-known/openid-configuration`)).text(),
          JSON.stringify(await api.app.db.select().from(auditLog)),
          ...logs.raw,
        ];
        assert.ok(logs.raw.length > 0, 'the log was collected');
        for (const salt of salts) {
          const hex = Buffer.from(salt, 'base64url').toString('hex');
          for (const text of answers) {
            assert.ok(!text.includes(salt) && !text.includes(hex), 'a salt was answered or logged');
          }
        }
        assert.ok(!JSON.stringify(await call('GET', '/admin/clientes-oidc')).includes('subject_salt'));
      });

      it('discovery names the public subject type only', async () => {
        const discovery = (await (await fetch(`${api.issuer}/.well-known/openid-configuration`)).json()) as {
          subject_types_supported: string[];
        };
        assert.deepEqual(discovery.subject_types_supported, ['public']);
      });
    });
  });

  describe('a database from before migration 0024', () => {
    let database: Database;
    let dispose: () => Promise<void>;
    let app: Awaited<ReturnType<typeof buildApp>>;
    let issuer: string;
    const redirect = 'https://antes.example.com/auth/callback';
    const secret = randomBytes(32).toString('base64url');
    const person = { email: 'antes@sujetos.test', password: 'clave-de-antes-1' };
    let personId = 0;

    before(async () => {
      ({ database, dispose } = await databaseBefore(backend, '0024'));
      await database.transaction(async (session) => {
        const [user] = await session.query<{ id: number }>(
          "INSERT INTO users (email, password_hash, status) VALUES ($1, $2, 'active') RETURNING id",
          [person.email, await hashPassword(person.password)],
        );
        personId = Number(user?.id);
        await session.query(
          `INSERT INTO oidc_clients (client_id, name, secret_hash, redirect_uris, first_party, scopes)
           VALUES ('socio-de-antes', 'Socio de antes', $1, ARRAY[$2], true, ARRAY['openid', 'email', 'offline_access'])`,
          [hashClientSecret(secret), redirect],
        );
      });
      const port = await freePort();
      issuer = `http://127.0.0.1:${port}`;
      // The API starting on it applies 0024, as an upgrade does.
      app = await buildApp({
        config: testConfig({ port, apiPublicUrl: issuer, oidcIssuer: issuer, portalUrl }),
        database,
        signingKey: await testSigningKey(),
      });
      await app.listen({ port, host: '127.0.0.1' });
    });
    after(async () => {
      await app?.close();
      await dispose?.();
    });

    it('the partner registered before keeps the numeric sub; the accounts got their public ids', async () => {
      const [client] = await app.db.select().from(oidcClients).where(eq(oidcClients.clientId, 'socio-de-antes'));
      assert.equal(client?.sujeto, 'numerico');
      const [user] = await app.db.select({ publicId: users.publicId }).from(users).where(eq(users.id, personId));
      assert.match(String(user?.publicId), uuid);
      const signedIn = await signIn(
        issuer,
        { clientId: 'socio-de-antes', clientSecret: secret },
        redirect,
        person,
        app,
      );
      assert.deepEqual(await subjectsSeen(signedIn), Array(4).fill(String(personId)));
      const newcomer = await createUser(app, {
        email: 'nueva@sujetos.test',
        password: 'clave-nueva-1',
        status: 'active',
      });
      const [fresh] = await app.db.select({ publicId: users.publicId }).from(users).where(eq(users.id, newcomer));
      assert.match(String(fresh?.publicId), uuid);
      assert.notEqual(fresh?.publicId, user?.publicId);
    });
  });
});
