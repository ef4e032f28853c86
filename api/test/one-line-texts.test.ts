// A one-line text (a person's name, a passkey's, an app's name and tags, an OIDC client's name) takes no control
// character and no U+FFFD, the replacement character a decoder leaves where a client sent bytes that are not UTF-8:
// refused with a Spanish 400 naming the field, and nothing is stored (schemas/common.ts, OneLineText).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { appTags, apps, connectedApps, passkeys, pendingRegistrations, users } from '../src/db/schema.js';
import { registration } from './helpers/accounts.js';
import { buildTestApp, createUser, forEachBackend, login, type TestApp } from './helpers/app.js';

const replaced = (field: string) =>
  `Datos inválidos: '${field}' contiene el carácter de reemplazo '\ufffd' (U+FFFD) de un texto mal codificado`;
const control = (field: string) => `Datos inválidos: '${field}' contiene un carácter no admitido`;

/** A JSON body as raw bytes, with `bytes` (not UTF-8) where `%%` stands in `json`. */
function withBytes(json: Record<string, unknown>, bytes: number[]): Buffer {
  const [head, tail] = JSON.stringify(json).split('%%');
  return Buffer.concat([Buffer.from(head!), Buffer.from(bytes), Buffer.from(tail!)]);
}

forEachBackend((backend) => {
  let t: TestApp;
  let ana: { id: number; token: string };
  let admin: string;

  before(async () => {
    t = await buildTestApp(backend);
    const id = await createUser(t.app, { email: 'ana@textos.test', password: 'clave-textos', status: 'active' });
    ana = { id, token: await login(t.app, 'ana@textos.test', 'clave-textos') };
    admin = await login(t.app);
  });
  after(() => t?.close());

  const send = (options: InjectOptions, token?: string) =>
    t.app.inject({
      ...options,
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...options.headers,
      },
    });
  const row = async (id: number) => (await t.app.db.select().from(users).where(eq(users.id, id)))[0]!;

  /** Every stored one-line text that holds U+FFFD. */
  async function storedReplacements(): Promise<string[]> {
    const { db } = t.app;
    const rows: Record<string, string>[] = [
      ...(await db.select({ name: users.name, lastName: users.lastName }).from(users)),
      ...(await db
        .select({ name: pendingRegistrations.name, lastName: pendingRegistrations.lastName })
        .from(pendingRegistrations)),
      ...(await db.select({ name: apps.nombre }).from(apps)),
      ...(await db.select({ name: appTags.descripcion }).from(appTags)),
      ...(await db.select({ name: passkeys.name }).from(passkeys)),
      ...(await db.select({ name: connectedApps.name }).from(connectedApps)),
    ];
    return rows.flatMap(Object.values).filter((text) => text.includes('\ufffd'));
  }

  describe('a name with U+FFFD', () => {
    it('is refused at registration, sent as bytes that are not UTF-8 or as the character itself, and no account is made', async () => {
      const email = 'jose@textos.test';
      const bodies: [string, string | Buffer][] = [
        // "José" in Latin-1, as a client that does not send UTF-8 writes it.
        ['name', withBytes(registration(email, { name: 'Jos%%' }), [0xe9])],
        ['name', withBytes(registration(email, { name: '%%' }), [0xff, 0xfe, 0xfd])],
        ['lastName', withBytes(registration(email, { lastName: '%%' }), [0xc3])],
        ['name', JSON.stringify(registration(email, { name: '\ufffd\ufffd' }))],
        // The JSON escape of the same character.
        ['lastName', JSON.stringify(registration(email, { lastName: 'P%%rez' })).replace('%%', '\\ufffd')],
      ];
      for (const [field, payload] of bodies) {
        const response = await send({ method: 'POST', url: '/auth/register', payload });
        assert.equal(response.statusCode, 400, `${field}: ${response.body}`);
        assert.deepEqual(response.json(), { statusCode: 400, code: 'VALIDATION_ERROR', message: replaced(field) });
      }
      assert.deepEqual(await t.app.db.select().from(users).where(eq(users.email, email)), []);
      assert.deepEqual(await storedReplacements(), []);
      // A name in UTF-8, accents and all, is taken.
      const taken = await send({
        method: 'POST',
        url: '/auth/register',
        payload: JSON.stringify(registration(email, { name: 'José Ñandú', lastName: 'Núñez-Ávila' })),
      });
      assert.equal(taken.statusCode, 201, taken.body);
    });

    it('is refused in the own profile, and the stored name stays', async () => {
      const before = await row(ana.id);
      const payloads: (string | Buffer)[] = [
        withBytes({ idUsuario: ana.id, name: 'Ana%%' }, [0xff, 0xfe]),
        JSON.stringify({ idUsuario: ana.id, name: '\ufffd' }),
      ];
      for (const payload of payloads) {
        const response = await send({ method: 'POST', url: '/auth/update-user', payload }, ana.token);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().message, replaced('name'));
      }
      assert.equal((await row(ana.id)).name, before.name);
    });

    it("is refused in an administrator's edit of a person, and the stored names stay", async () => {
      const before = await row(ana.id);
      const cases: [string, string | Buffer][] = [
        ['name', withBytes({ name: '%%' }, [0xed, 0xa0, 0x80])],
        ['lastName', JSON.stringify({ name: 'Ana', lastName: 'Pérez\ufffd' })],
      ];
      for (const [field, payload] of cases) {
        const response = await send({ method: 'PUT', url: `/auth/editar/${ana.id}`, payload }, admin);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().message, replaced(field));
      }
      const after = await row(ana.id);
      assert.deepEqual([after.name, after.lastName], [before.name, before.lastName]);
    });
  });

  it("refuses U+FFFD in every other one-line text: a passkey's name, an app's name and tags, an OIDC client's name", async () => {
    const cases: [InjectOptions, string, string][] = [
      [
        {
          method: 'POST',
          url: '/auth/passkeys',
          payload: { ceremonyId: 'c'.repeat(43), name: 'Llave \ufffd', response: {} },
        },
        ana.token,
        'name',
      ],
      [{ method: 'POST', url: '/apps/register', payload: { nombre: '\ufffd' } }, admin, 'nombre'],
      [
        {
          method: 'POST',
          url: '/apps/register',
          payload: { nombre: 'Medidor', tags: [{ descripcion: 'Nuev\ufffd' }] },
        },
        admin,
        'tags.0.descripcion',
      ],
      [
        {
          method: 'POST',
          url: '/admin/clientes-oidc',
          payload: { nombre: 'Cliente \ufffd', redirectUris: ['https://cliente.example.com/vuelta'] },
        },
        admin,
        'nombre',
      ],
    ];
    for (const [options, token, field] of cases) {
      const response = await send(options, token);
      assert.equal(response.statusCode, 400, `${options.url}: ${response.body}`);
      assert.equal(response.json().message, replaced(field), String(options.url));
    }
    assert.deepEqual(await storedReplacements(), []);
  });

  it('names a control character in a one-line text as a character it does not take', async () => {
    const cases: [InjectOptions, string, string][] = [
      [
        { method: 'POST', url: '/auth/update-user', payload: { idUsuario: ana.id, name: 'Ana\u0007' } },
        ana.token,
        'name',
      ],
      [
        { method: 'POST', url: '/apps/register', payload: { nombre: 'Medidor', tags: [{ descripcion: 'Nuevo\r\n' }] } },
        admin,
        'tags.0.descripcion',
      ],
    ];
    for (const [options, token, field] of cases) {
      const response = await send(options, token);
      assert.equal(response.statusCode, 400, `${options.url}: ${response.body}`);
      assert.equal(response.json().message, control(field), String(options.url));
    }
  });
});
