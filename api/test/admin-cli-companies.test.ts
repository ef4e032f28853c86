// `npm run admin -- empresa …` run as a real process against PGlite and, with DATABASE_URL, PostgreSQL: companies
// created, renamed, suspended, listed, sold a licence and given a first owner from the console; what it did is checked
// through the real API (node api/dist/server.js): the company as its owner reads it and the audit log naming the operator.
// A minute or two per backend: each order is a process of its own that loads the API and opens its database.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { pgliteExtensions } from '../src/db/client.js';
import { adminEmail, adminPassword, backends, pgliteSnapshot, type Backend } from './helpers/app.js';
import { admin, shown } from './helpers/admin-command.js';
import { startApi, type ApiProcess } from './helpers/processes.js';

const accounts = { ADMIN_EMAIL: adminEmail, ADMIN_PASSWORD: adminPassword, ADMIN_SECOND_FACTOR: 'optional' };
const ownerEmail = 'jefa@minera.test';
const ownerPassword = 'clave-de-prueba-jefa';

/** An active account with a known password, written before any command runs (the console adds existing accounts). */
async function insertOwner(query: (sql: string, values: unknown[]) => Promise<unknown>): Promise<void> {
  const { hashPassword } = await import('../src/domain/accounts/passwords.js');
  await query(`INSERT INTO users (email, password_hash, name, status) VALUES ($1, $2, 'Jefa', 'active')`, [
    ownerEmail,
    await hashPassword(ownerPassword),
  ]);
}

/** A database of the backend's kind, migrated and seeded (PGlite) or migrated by the first command (PostgreSQL). */
async function prepare(
  backend: Backend,
): Promise<{ env: Record<string, string | undefined>; addOwner(): Promise<void>; dispose(): Promise<void> }> {
  if (backend === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-admin-cli-companies-'));
    const client = await PGlite.create({
      dataDir: join(dataDir, 'pglite'),
      loadDataDir: await pgliteSnapshot(),
      extensions: pgliteExtensions,
    });
    await insertOwner((sql, values) => client.query(sql, values));
    await client.close();
    return {
      env: { ...accounts, DATA_DIR: dataDir, DATABASE_URL: undefined },
      addOwner: async () => {},
      dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const url = process.env.DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await pool.query(`CREATE SCHEMA ${schema}`);
  const separator = url.includes('?') ? '&' : '?';
  const keysDir = mkdtempSync(join(tmpdir(), 'portal-admin-cli-companies-keys-'));
  const env = {
    ...accounts,
    DATA_DIR: keysDir,
    DATABASE_URL: `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
  };
  return {
    env,
    // The schema is migrated by the first command that opens it.
    addOwner: async () => {
      // On the schema's own search path: the users table's triggers name their tables unqualified.
      const client = await pool.connect();
      try {
        await client.query(`SET search_path TO ${schema}`);
        await insertOwner((sql, values) => client.query(sql, values));
      } finally {
        client.release();
      }
    },
    async dispose() {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await pool.end();
      rmSync(keysDir, { recursive: true, force: true });
    },
  };
}

async function signIn(api: ApiProcess, email: string, password: string): Promise<string> {
  const response = await fetch(`${api.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { access_token?: string };
  assert.ok(body.access_token, JSON.stringify(body));
  return body.access_token;
}

async function get<T>(api: ApiProcess, path: string, token: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as T };
}

for (const backend of backends) {
  describe(`empresa (${backend})`, () => {
    let env: Record<string, string | undefined>;
    let dispose: () => Promise<void>;
    let addOwner: () => Promise<void>;
    let api: ApiProcess | undefined;
    let companyId = 0;

    before(async () => {
      ({ env, addOwner, dispose } = await prepare(backend));
    });
    after(async () => {
      await api?.stop();
      await dispose();
    });

    it('creates, refuses a duplicate, renames, suspends, reactivates and lists companies', async () => {
      const created = await admin(env, 'empresa', 'crear', '  Minera Andina S.A. ');
      assert.equal(created.code, 0, shown(created));
      const id = /^Empresa creada: Minera Andina S\.A\. \(id (\d+)\)\./.exec(created.stdout)?.[1];
      assert.ok(id, shown(created));
      companyId = Number(id);
      assert.match(created.stdout, new RegExp(`empresa miembro ${id} <email> --rol propietario`));

      const again = await admin(env, 'empresa', 'crear', 'MINERA ANDINA S.A.');
      assert.equal(again.code, 1, shown(again));
      assert.match(again.stderr, /^Ya existe una empresa llamada «MINERA ANDINA S\.A\.»/m);

      const renamed = await admin(env, 'empresa', 'renombrar', id, 'Minera Andina SpA');
      assert.equal(renamed.code, 0, shown(renamed));
      assert.match(renamed.stdout, new RegExp(`^Empresa ${id} renombrada: Minera Andina SpA\\.`));

      const suspended = await admin(env, 'empresa', 'suspender', id);
      assert.equal(suspended.code, 0, shown(suspended));
      assert.match(suspended.stdout, /^Minera Andina SpA suspendida/);
      const listed = await admin(env, 'empresa', 'listar', '--estado', 'suspendida', '--nombre', 'andina');
      assert.equal(listed.code, 0, shown(listed));
      assert.match(
        listed.stdout,
        new RegExp(
          `^id\\s+nombre\\s+estado\\s+miembros\\s+licencias\\s+alta\\n${id}\\s+Minera Andina SpA\\s+suspendida\\s+0\\s+0`,
        ),
      );
      assert.match(listed.stdout, /1 empresa; página 1 de 1\./);

      const reactivated = await admin(env, 'empresa', 'reactivar', id);
      assert.equal(reactivated.code, 0, shown(reactivated));
      assert.match(reactivated.stdout, /^Minera Andina SpA reactivada\./);
    });

    it('sells a licence, refuses a date past, and names the first owner, who then manages the company', async () => {
      const id = String(companyId);
      // The seeded catalogue's first app and its first plan; a date past is refused (exit code 1).
      const sold = await admin(
        env,
        'empresa',
        'licencia',
        id,
        '1',
        '--plan',
        '1',
        '--puestos',
        '3',
        '--vence',
        '2099-12-31',
      );
      assert.equal(sold.code, 0, shown(sold));
      assert.match(
        sold.stdout,
        /^Licencia vendida a Minera Andina SpA:\n.+\(app 1\): plan .+ \(1\), 3 puestos, 0 en uso, 3 libres, vence 2099-12-31/,
      );

      const past = await admin(
        env,
        'empresa',
        'licencia',
        id,
        '1',
        '--plan',
        '1',
        '--puestos',
        '3',
        '--vence',
        '2001-01-01',
      );
      assert.equal(past.code, 1, shown(past));
      assert.match(past.stderr, /^La fecha de vencimiento debe ser posterior a este momento/m);

      await addOwner();
      const owner = await admin(env, 'empresa', 'miembro', id, 'Jefa@Minera.test', '--rol', 'propietario');
      assert.equal(owner.code, 0, shown(owner));
      assert.match(owner.stdout, /^jefa@minera\.test es ahora propietario de Minera Andina SpA\./);

      const licences = await admin(env, 'empresa', 'licencia', id);
      assert.equal(licences.code, 0, shown(licences));
      assert.match(licences.stdout, /^Licencias de Minera Andina SpA:\n.+3 puestos, 0 en uso/);

      // What it did, through the real API: the owner manages the company; the log names the operator.
      api = await startApi(env);
      const ownerToken = await signIn(api, ownerEmail, ownerPassword);
      const company = await get<{ nombre: string; miRol: string; miembros: number; estado: string }>(
        api,
        `/empresas/${id}`,
        ownerToken,
      );
      assert.equal(company.status, 200, JSON.stringify(company.body));
      assert.deepEqual(
        [company.body.nombre, company.body.miRol, company.body.miembros, company.body.estado],
        ['Minera Andina SpA', 'propietario', 1, 'activa'],
      );
      const licence = await get<{ puestos: number }[]>(api, `/empresas/${id}/licencias`, ownerToken);
      assert.equal(licence.body[0]?.puestos, 3);

      const adminToken = await signIn(api, adminEmail, adminPassword);
      const audit = await get<{ data: { actorEmail: string; actorId: number | null; action: string }[] }>(
        api,
        '/admin/auditoria?targetType=company&limit=100',
        adminToken,
      );
      assert.equal(audit.status, 200, JSON.stringify(audit.body));
      const actions = audit.body.data.map((entry) => entry.action).reverse();
      assert.deepEqual(actions, [
        'company.create',
        'company.rename',
        'company.status_change',
        'company.status_change',
        'company.licence_create',
        'company.member_add',
      ]);
      for (const entry of audit.body.data) {
        assert.equal(entry.actorEmail, 'operador (CLI)');
        assert.equal(entry.actorId, null);
      }
    });
  });
}
