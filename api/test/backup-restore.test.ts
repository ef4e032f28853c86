// Backups that restore (docs/operations.md, "Backups"). A portal with accounts, a passkey, authenticator apps, a
// changed plan, a suspension and their audit entries is built through the API; then it is backed up and restored
// exactly as the operator is told to: the embedded database with `npm run admin -- respaldo` / `restaurar` (the real
// command, as a process), PostgreSQL with pg_dump / createdb / pg_restore. The restored portal runs as a real API
// process and every person signs in again with the same password and the same factor. What a restore cannot bring
// back is checked too: sessions opened and codes mailed after the backup. About a minute per backend, more on a busy
// machine: the backup and restore commands and the restored API are real processes, each loading the API anew.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { pgliteExtensions } from '../src/db/client.js';
import { readArchive, writeArchive } from '../src/domain/backups/archive.js';
import {
  adminEmail,
  adminPassword,
  backends,
  createUser,
  generateEcKeyPem,
  pgliteSnapshot,
  testConfig,
} from './helpers/app.js';
import { admin, shown } from './helpers/admin-command.js';
import { startApi, type ApiProcess } from './helpers/processes.js';
import { SoftAuthenticator } from './helpers/soft-authenticator.js';

const password = 'clave-del-respaldo';
/** The defaults of a portal on this machine, in the API that builds the portal and in the restored ones alike. */
const relyingParty = { rpId: 'localhost', origin: 'http://localhost:8080' };
const generousLimits = { LOGIN_RATE_LIMIT_PER_MINUTE: '10000', AUTH_RATE_LIMIT_PER_MINUTE: '10000' };

/** A shell command of the documented PostgreSQL procedure; fails the test with its output when it fails. */
function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 120_000 });
  assert.equal(result.status, 0, `${command} ${args.join(' ')}\n${result.stdout}\n${result.stderr}`);
}

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field by the tests.
  body: any;
}

/** An HTTP client of the in-process API (inject) or of an API process (fetch). */
type Call = (method: string, path: string, options?: { token?: string; payload?: unknown }) => Promise<Answer>;

function injectClient(app: FastifyInstance): Call {
  return async (method, url, options = {}) => {
    const response = await app.inject({
      method: method as 'GET',
      url,
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
      ...(options.payload === undefined ? {} : { payload: options.payload as object }),
    });
    return { status: response.statusCode, body: response.body ? response.json() : undefined };
  };
}

function httpClient(api: ApiProcess): Call {
  return async (method, path, options = {}) => {
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: options.payload === undefined ? undefined : JSON.stringify(options.payload),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}

function ok(answer: Answer, status = 200): Answer {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  return answer;
}

/** The code an authenticator app shows `steps` 30-second steps from now. */
const totpCode = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** The people of the portal, and how each one proves who they are. */
interface Portal {
  admin: { totpSecret: string };
  /** Password only; an administrator gave her the PRO plan of app 1. */
  ana: { email: string; id: number; proPlanId: number; tokenBeforeBackup: string };
  /** Password and an authenticator app, with its recovery codes. */
  eva: { email: string; totpSecret: string; recoveryCodes: string[] };
  /** Password and a passkey, which also signs him in alone. */
  luis: { email: string; passkey: SoftAuthenticator };
  /** Suspended by an administrator. */
  pablo: { email: string; id: number };
}

/** Sets up an authenticator app: answers its secret and the recovery codes shown once. */
async function addAuthenticatorApp(call: Call, token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const { secret } = ok(await call('POST', '/auth/totp', { token })).body as { secret: string };
  const confirmed = ok(
    await call('POST', '/auth/totp/confirmar', { token, payload: { code: await totpCode(secret) } }),
  );
  return { secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

/** Builds the portal through the API (accounts written directly, as the other suites do, then signed in over HTTP). */
async function buildPortal(app: FastifyInstance): Promise<Portal> {
  const call = injectClient(app);
  const signIn = async (email: string, secret = password) =>
    ok(await call('POST', '/auth/login', { payload: { email, password: secret } })).body.access_token as string;

  const adminToken = await signIn(adminEmail, adminPassword);
  const adminTotp = await addAuthenticatorApp(call, adminToken);

  const ana = {
    email: 'ana@portal.test',
    id: await createUser(app, { email: 'ana@portal.test', password, status: 'active' }),
  };
  const apps = ok(await call('GET', '/apps/listar-con-planes')).body as Array<{
    id: number;
    planes: Array<{ id: number; nombre: string }>;
  }>;
  const proPlanId = apps.find((entry) => entry.id === 1)?.planes.find((plan) => plan.nombre === 'PRO')?.id;
  assert.ok(proPlanId, 'app 1 has a PRO plan');
  ok(
    await call('POST', '/plan-usuario/cambiar-plan-app', {
      token: adminToken,
      payload: { idUsuario: ana.id, idApp: 1, idPlan: proPlanId, fechaVencimiento: '2031-01-01T00:00:00.000Z' },
    }),
  );

  const eva = { email: 'eva@portal.test' };
  await createUser(app, { email: eva.email, password, status: 'active' });
  const evaTotp = await addAuthenticatorApp(call, await signIn(eva.email));

  const luis = { email: 'luis@portal.test', passkey: new SoftAuthenticator(relyingParty) };
  await createUser(app, { email: luis.email, password, status: 'active' });
  const luisToken = await signIn(luis.email);
  const { ceremonyId, options } = ok(await call('POST', '/auth/passkeys/opciones-registro', { token: luisToken })).body;
  ok(
    await call('POST', '/auth/passkeys', {
      token: luisToken,
      payload: { ceremonyId, name: 'Portátil de Luis', response: luis.passkey.register(options) },
    }),
    201,
  );

  const pablo = {
    email: 'pablo@portal.test',
    id: await createUser(app, { email: 'pablo@portal.test', password, status: 'active' }),
  };
  ok(await call('PUT', `/auth/cambiar-estado/${pablo.id}`, { token: adminToken }));

  return {
    admin: { totpSecret: adminTotp.secret },
    ana: { ...ana, proPlanId, tokenBeforeBackup: await signIn(ana.email) },
    eva: { ...eva, totpSecret: evaTotp.secret, recoveryCodes: evaTotp.recoveryCodes },
    luis,
    pablo,
  };
}

/** Password, then the authenticator app's code: answers the session token. */
async function signInWithAuthenticatorApp(call: Call, email: string, secret: string, userPassword = password) {
  const first = await call('POST', '/auth/login', { payload: { email, password: userPassword } });
  assert.equal(first.status, 403, JSON.stringify(first.body));
  assert.equal(first.body.code, 'SECOND_FACTOR_REQUIRED');
  // The next step's code: the one of this step may be the last one the backup's database saw used.
  const second = ok(
    await call('POST', '/auth/login/segundo-paso', {
      payload: { ticket: first.body.ticket, code: await totpCode(secret, 1) },
    }),
  );
  return second.body.access_token as string;
}

/** Every person of `portal` signs in to the API behind `call` as before the backup, and sees what they had. */
async function everyoneSignsInAgain(call: Call, portal: Portal): Promise<void> {
  const adminToken = await signInWithAuthenticatorApp(call, adminEmail, portal.admin.totpSecret, adminPassword);
  const audit = ok(await call('GET', '/admin/auditoria?limit=100', { token: adminToken })).body.data as Array<{
    action: string;
    targetId: number;
  }>;
  assert.ok(
    audit.some((entry) => entry.action === 'user.plan_change' && entry.targetId === portal.ana.id),
    'the plan change is in the audit log',
  );
  assert.ok(
    audit.some((entry) => entry.action === 'user.status_change' && entry.targetId === portal.pablo.id),
    'the suspension is in the audit log',
  );

  const ana = ok(await call('POST', '/auth/login', { payload: { email: portal.ana.email, password } })).body;
  const anaUser = ok(await call('GET', '/auth/user', { token: ana.access_token })).body;
  const plan = anaUser.planesUsuarios.find((entry: { app: { id: number } }) => entry.app.id === 1);
  assert.equal(plan?.plan.nombre, 'PRO', JSON.stringify(anaUser.planesUsuarios));
  assert.equal(plan?.fechaVencimiento, '2031-01-01T00:00:00.000Z');

  const eva = await signInWithAuthenticatorApp(call, portal.eva.email, portal.eva.totpSecret);
  assert.equal(ok(await call('GET', '/auth/user', { token: eva })).body.email, portal.eva.email);
  // Her phone lost: a recovery code of the backup signs her in, once.
  const recoveryCode = portal.eva.recoveryCodes[0];
  const withRecoveryCode = async () => {
    const first = await call('POST', '/auth/login', { payload: { email: portal.eva.email, password } });
    assert.equal(first.status, 403, JSON.stringify(first.body));
    return call('POST', '/auth/login/segundo-paso', { payload: { ticket: first.body.ticket, code: recoveryCode } });
  };
  const recovered = ok(await withRecoveryCode()).body.access_token as string;
  assert.equal(ok(await call('GET', '/auth/user', { token: recovered })).body.email, portal.eva.email);
  assert.equal((await withRecoveryCode()).status, 401, 'a recovery code is used once');

  // Luis: the password then his passkey, and the passkey alone.
  const first = await call('POST', '/auth/login', { payload: { email: portal.luis.email, password } });
  assert.equal(first.status, 403, JSON.stringify(first.body));
  assert.ok(first.body.methods.includes('passkey'), JSON.stringify(first.body));
  const ticket = first.body.ticket as string;
  const stepOptions = ok(await call('POST', '/auth/passkeys/opciones-inicio', { payload: { ticket } })).body;
  const secondStep = ok(
    await call('POST', '/auth/passkeys/iniciar-sesion', {
      payload: {
        ceremonyId: stepOptions.ceremonyId,
        ticket,
        response: portal.luis.passkey.assert(stepOptions.options),
      },
    }),
  ).body;
  assert.equal(ok(await call('GET', '/auth/user', { token: secondStep.access_token })).body.email, portal.luis.email);
  const aloneOptions = ok(await call('POST', '/auth/passkeys/opciones-inicio', { payload: {} })).body;
  const alone = ok(
    await call('POST', '/auth/passkeys/iniciar-sesion', {
      payload: { ceremonyId: aloneOptions.ceremonyId, response: portal.luis.passkey.assert(aloneOptions.options) },
    }),
  ).body;
  assert.equal(ok(await call('GET', '/auth/user', { token: alone.access_token })).body.email, portal.luis.email);

  const pablo = await call('POST', '/auth/login', { payload: { email: portal.pablo.email, password } });
  assert.equal(pablo.status, 403, JSON.stringify(pablo.body));
  assert.equal(pablo.body.code, 'USER_SUSPENDED');

  assert.equal(
    (await call('POST', '/auth/login', { payload: { email: portal.ana.email, password: 'otra-clave' } })).status,
    401,
  );
}

/** Builds a portal with the real API on `config` overrides, then closes it (the database stays). */
async function buildPortalOn(overrides: Parameters<typeof testConfig>[0]): Promise<Portal> {
  const app = await buildApp({
    config: testConfig({
      adminSecondFactor: 'required',
      loginRateLimitPerMinute: 10_000,
      authRateLimitPerMinute: 10_000,
      ...overrides,
    }),
    mailTransport: { send: async () => {} },
  });
  try {
    return await buildPortal(app);
  } finally {
    await app.close();
  }
}

const temporaryDirs: string[] = [];
const temporaryDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporaryDirs.push(dir);
  return dir;
};
describe('backup-restore.test.ts', () => {
  after(() => {
    for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true });
  });

  describe('the embedded database: npm run admin -- respaldo / restaurar', {
    skip: !backends.includes('pglite'),
  }, () => {
    let work: string;
    /** The portal's DATA_DIR, as the API and the command find it. */
    let dataDir: string;
    let backup: string;
    let portal: Portal;
    /** What the running API handed out after the backup: a session and an emailed reset code. */
    let afterBackup: { token: string; resetCode: string };
    const embedded = (dir: string) => ({ DATA_DIR: dir, DATABASE_URL: undefined, JWT_PRIVATE_KEY: undefined });

    before(async () => {
      work = temporaryDir('portal-backup-');
      dataDir = join(work, 'data');
      backup = join(work, 'portal.respaldo');
      // A migrated and seeded database to start from (a PGlite cold start takes seconds); the signing key is generated
      // into DATA_DIR by the API, as on a real first start.
      mkdirSync(dataDir, { mode: 0o700 });
      const client = await PGlite.create({
        dataDir: join(dataDir, 'pglite'),
        loadDataDir: await pgliteSnapshot(),
        extensions: pgliteExtensions,
      });
      await client.close();
      portal = await buildPortalOn({ dataDir, databaseUrl: undefined, jwtPrivateKey: undefined });
    });

    it('backs up the database and the generated signing key into a new file only its owner reads', async () => {
      const result = await admin(embedded(dataDir), 'respaldo', backup);
      assert.equal(result.code, 0, shown(result));
      assert.match(
        result.stdout,
        /^Respaldo escrito en .*portal\.respaldo \([\d,]+ MB\): la base de datos embebida \(5 cuentas\) y su clave de firma\.\n/,
      );
      assert.match(result.stdout, /Guárdalo como un secreto/);
      assert.equal(statSync(backup).mode & 0o777, 0o600);
      const entries = readArchive(readFileSync(backup));
      assert.deepEqual(
        [...entries.keys()],
        ['respaldo.json', 'pglite.tar.gz', 'keys/jwt-es256.pem', 'keys/saml-idp.pem'],
      );
      assert.deepEqual(entries.get('keys/jwt-es256.pem'), readFileSync(join(dataDir, 'keys/jwt-es256.pem')));
      // The SAML identity provider's key and certificate, which partner apps trust, go with it.
      assert.deepEqual(entries.get('keys/saml-idp.pem'), readFileSync(join(dataDir, 'keys/saml-idp.pem')));

      const again = await admin(embedded(dataDir), 'respaldo', backup);
      assert.equal(again.code, 1, shown(again));
      assert.match(
        again.stderr,
        /^Ya existe .*portal\.respaldo: un respaldo nunca sobrescribe otro archivo\. Elige otro nombre\.\n$/,
      );
    });

    it('while the API runs, refuses to back up or restore in Spanish, writing and changing nothing', async () => {
      const api = await startApi({ ...embedded(dataDir), ...generousLimits });
      try {
        const expected = new RegExp(
          `^La API está en marcha \\(pid ${api.child.pid}\\) y tiene abierta la base de datos embebida de ${dataDir}\\.\\n` +
            'Los respaldos y las restauraciones de la base de datos embebida se hacen con la API detenida: detenla ' +
            '\\(Ctrl-C en npm start\\), repite la orden y vuelve a arrancarla\\. No se cambió nada\\.\\n$',
        );
        const other = join(work, 'otro.respaldo');
        const backingUp = await admin(embedded(dataDir), 'respaldo', other);
        assert.equal(backingUp.code, 1, shown(backingUp));
        assert.match(backingUp.stderr, expected);
        assert.equal(existsSync(other), false);
        const restoring = await admin(embedded(dataDir), 'restaurar', backup, '--forzar');
        assert.equal(restoring.code, 1, shown(restoring));
        assert.match(restoring.stderr, expected);
        assert.deepEqual(readdirSync(dataDir).sort(), ['keys', 'pglite', 'pglite.lock']);

        // Life goes on after the backup: Ana opens a session, Eva asks for a reset code (printed: no SMTP_URL).
        const call = httpClient(api);
        const token = ok(await call('POST', '/auth/login', { payload: { email: portal.ana.email, password } })).body
          .access_token as string;
        ok(await call('POST', '/auth/forgot-password', { payload: { email: portal.eva.email } }));
        const resetCode = await waitForCode(api, portal.eva.email);
        afterBackup = { token, resetCode };
      } finally {
        await api.stop();
      }
    });

    it('refuses a file that is not a whole backup with one Spanish line, exit 1, and leaves the directory untouched', async () => {
      const target = join(work, 'nunca');
      const text = join(work, 'notas.txt');
      writeFileSync(text, 'esto no es un respaldo\n');
      const cut = join(work, 'cortado.respaldo');
      writeFileSync(cut, readFileSync(backup).subarray(0, 1_000_000));
      // A byte of the database changed: the tar is still well formed, the SHA-256 in respaldo.json no longer matches.
      const damaged = join(work, 'dañado.respaldo');
      const entries = readArchive(readFileSync(backup));
      const database = Buffer.from(entries.get('pglite.tar.gz') as Buffer);
      database[database.length >> 1] = (database[database.length >> 1] ?? 0) ^ 0xff;
      writeFileSync(
        damaged,
        writeArchive([...entries].map(([name, data]) => ({ name, data: name === 'pglite.tar.gz' ? database : data }))),
      );
      const foreign = join(work, 'ajeno.respaldo');
      writeFileSync(foreign, writeArchive([{ name: 'respaldo.json', data: Buffer.from('{"format":"otra-cosa"}') }]));

      const cases: Array<[string, RegExp]> = [
        [text, /^.*notas\.txt no es un respaldo del portal válido \(no es un archivo tar\)\. No se cambió nada\.\n$/],
        [
          cut,
          /^.*cortado\.respaldo no es un respaldo del portal válido \(el archivo está cortado\)\. No se cambió nada\.\n$/,
        ],
        [
          damaged,
          /^.*dañado\.respaldo no es un respaldo del portal válido \(pglite\.tar\.gz está dañado: su suma SHA-256 no coincide\)\. No se cambió nada\.\n$/,
        ],
        [
          foreign,
          /^.*ajeno\.respaldo no es un respaldo del portal válido \(respaldo\.json no es el de un respaldo del portal\)\. No se cambió nada\.\n$/,
        ],
        [join(work, 'no-existe.respaldo'), /^No existe el archivo .*no-existe\.respaldo\.\n$/],
      ];
      for (const [file, message] of cases) {
        const result = await admin(embedded(target), 'restaurar', file);
        assert.equal(result.code, 1, shown(result));
        assert.match(result.stderr, message);
        assert.equal(result.stdout, '');
        assert.equal(existsSync(target), false, `${file} left ${target} behind`);
      }

      const missing = await admin(embedded(target), 'restaurar');
      assert.equal(missing.code, 2, shown(missing));
      assert.match(missing.stderr, /^restaurar necesita un archivo\./);
    });

    it('refuses to restore over a directory that holds a database unless told --forzar', async () => {
      const before = readFileSync(join(dataDir, 'keys/jwt-es256.pem'));
      const result = await admin(embedded(dataDir), 'restaurar', backup);
      assert.equal(result.code, 1, shown(result));
      assert.match(
        result.stderr,
        /^.*\/data ya tiene una base de datos \(pglite\/\) y una clave de firma \(keys\/\)\. Para reemplazar lo que hay por el respaldo, repite la orden con --forzar/,
      );
      assert.deepEqual(readdirSync(dataDir).sort(), ['keys', 'pglite']);
      assert.deepEqual(readFileSync(join(dataDir, 'keys/jwt-es256.pem')), before);
    });

    it('restores into a fresh DATA_DIR, where everyone signs in again with the same password and factor', async () => {
      const restored = join(work, 'restaurado');
      const result = await admin(embedded(restored), 'restaurar', backup);
      assert.equal(result.code, 0, shown(result));
      assert.match(
        result.stdout,
        /^Restaurado en .*restaurado: el respaldo del \d{4}-\d\d-\d\d \d\d:\d\d UTC \(5 cuentas\) y su clave de firma\.\n/,
      );
      assert.match(result.stdout, /Lo posterior al respaldo no vuelve: las sesiones abiertas desde entonces terminan/);
      assert.equal(statSync(restored).mode & 0o777, 0o700);
      assert.equal(statSync(join(restored, 'keys/jwt-es256.pem')).mode & 0o777, 0o600);
      assert.equal(statSync(join(restored, 'keys/saml-idp.pem')).mode & 0o777, 0o600);
      assert.deepEqual(
        readFileSync(join(restored, 'keys/saml-idp.pem')),
        readFileSync(join(dataDir, 'keys/saml-idp.pem')),
      );

      const api = await startApi({ ...embedded(restored), ...generousLimits });
      try {
        const call = httpClient(api);
        await everyoneSignsInAgain(call, portal);
        // The key came back with the database: a session of the backup still works. One opened after it does not,
        // and the code mailed after it is unknown.
        ok(await call('GET', '/auth/user', { token: portal.ana.tokenBeforeBackup }));
        assert.equal((await call('GET', '/auth/user', { token: afterBackup.token })).status, 401);
        const reset = await call('POST', '/auth/change-password', {
          payload: { email: portal.eva.email, code: afterBackup.resetCode, newPassword: 'clave-nueva' },
        });
        assert.equal(reset.status, 400, JSON.stringify(reset.body));
        assert.equal(reset.body.message, 'Código inválido o expirado');
      } finally {
        await api.stop();
      }
    });

    it('with --forzar, replaces the database and the key, keeping what was there aside', async () => {
      const before = readFileSync(join(dataDir, 'keys/jwt-es256.pem'));
      const result = await admin(embedded(dataDir), 'restaurar', backup, '--forzar');
      assert.equal(result.code, 0, shown(result));
      const aside = /Lo que había se guardó en (\S+): bórralo cuando compruebes la restauración\./.exec(
        result.stdout,
      )?.[1];
      assert.ok(aside, shown(result));
      assert.deepEqual(readdirSync(aside).sort(), ['keys', 'pglite']);
      assert.deepEqual(readFileSync(join(aside, 'keys/jwt-es256.pem')), before);
      assert.ok(existsSync(join(dataDir, 'pglite/PG_VERSION')));
    });
  });

  /** The six-digit code of the last mail the API printed for `email` (console mailer). */
  async function waitForCode(api: ApiProcess, email: string): Promise<string> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const mails = api.output().split(`--- Correo para ${email} ---`);
      const code = mails.length > 1 ? /\b(\d{6})\b/.exec(mails.at(-1) ?? '')?.[1] : undefined;
      if (code) return code;
      if (Date.now() > deadline) throw new Error(`no mail with a code for ${email}:\n${api.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  describe('PostgreSQL: pg_dump, createdb, pg_restore', { skip: !backends.includes('postgres') }, () => {
    const serverUrl = process.env.DATABASE_URL ?? '';
    const suffix = randomBytes(4).toString('hex');
    const databaseUrl = (name: string) => {
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      return url.toString();
    };
    const source = `portal_respaldo_${suffix}`;
    const restoredName = `portal_restaurada_${suffix}`;
    // Production signs with a configured key, which the operator keeps beside the dump.
    const signingKey = generateEcKeyPem();
    let server: pg.Pool;
    let portal: Portal;

    before(async () => {
      server = new pg.Pool({ connectionString: serverUrl, max: 1 });
      await server.query(`CREATE DATABASE ${source}`);
      portal = await buildPortalOn({
        databaseUrl: databaseUrl(source),
        jwtPrivateKey: signingKey,
        dataDir: temporaryDir('portal-backup-pg-'),
      });
    });
    after(async () => {
      for (const name of [source, restoredName]) await server.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await server.end();
    });

    it('the documented commands restore a fresh database, where everyone signs in again with the same password and factor', async () => {
      const dump = join(temporaryDir('portal-backup-dump-'), 'portal.dump');
      run('pg_dump', ['--format=custom', `--file=${dump}`, databaseUrl(source)]);
      run('createdb', [`--maintenance-db=${serverUrl}`, restoredName]);
      run('pg_restore', [
        '--no-owner',
        '--no-acl',
        '--exit-on-error',
        '--single-transaction',
        `--dbname=${databaseUrl(restoredName)}`,
        dump,
      ]);

      const api = await startApi({
        DATABASE_URL: databaseUrl(restoredName),
        JWT_PRIVATE_KEY: signingKey,
        DATA_DIR: temporaryDir('portal-backup-pg-restored-'),
        ...generousLimits,
      });
      try {
        const call = httpClient(api);
        await everyoneSignsInAgain(call, portal);
        ok(await call('GET', '/auth/user', { token: portal.ana.tokenBeforeBackup }));
      } finally {
        await api.stop();
      }
    });

    it('the admin command points to pg_dump and pg_restore instead of backing up PostgreSQL', async () => {
      const env = {
        DATABASE_URL: databaseUrl(source),
        JWT_PRIVATE_KEY: signingKey,
        DATA_DIR: temporaryDir('portal-backup-pg-cli-'),
      };
      for (const args of [
        ['respaldo', join(tmpdir(), `portal-${suffix}.respaldo`)],
        ['restaurar', 'portal.respaldo'],
      ]) {
        const result = await admin(env, ...args);
        assert.equal(result.code, 1, shown(result));
        assert.equal(
          result.stderr,
          'Con PostgreSQL (DATABASE_URL) el respaldo se hace con pg_dump y se restaura con pg_restore: ver docs/operations.md, sección «Backups».\n',
        );
      }
    });
  });
});
