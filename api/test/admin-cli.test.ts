// The operator's command (`npm run admin -- <orden>`, compiled from src/cli/admin.ts) run as a real process against PGlite and, with
// DATABASE_URL, PostgreSQL; what it did is checked through the real API (node api/dist/server.js): who can sign in, which
// sessions still work, what the audit log says.
// It takes two to three minutes per backend: dozens of runs of the command, each a process of its own that opens its
// database (on PGlite, the database's WebAssembly compiled anew in every process), as the operator's runs are.
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
import { admin, type CommandResult, shown } from './helpers/admin-command.js';
import { startApi, type ApiProcess } from './helpers/processes.js';

/** The one-time password the command printed. */
function printedPassword(result: CommandResult): string {
  const password = /\(se muestra solo esta vez\): (\S+)/.exec(result.stdout)?.[1];
  assert.ok(password, shown(result));
  return password;
}

async function signIn(
  api: ApiProcess,
  email: string,
  password: string,
): Promise<{ status: number; token?: string; body: { message?: string } }> {
  const response = await fetch(`${api.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { access_token?: string; message?: string };
  return { status: response.status, token: body.access_token, body };
}

/** An entry of `GET /admin/auditoria`, as far as these tests read it. */
interface AuditEntry {
  actorId: number | null;
  actorEmail: string;
  action: string;
  targetLabel: string;
  details: Record<string, unknown>;
}

async function get(
  api: ApiProcess,
  path: string,
  token: string,
): Promise<{ status: number; body: { data: AuditEntry[] } }> {
  const response = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as { data: AuditEntry[] } };
}

// The API started here reads the audit log with a password session: the administrators' second factor (required by
// default) has its own suites, second-factor.test.ts and passkeys.test.ts.
const accounts = { ADMIN_EMAIL: adminEmail, ADMIN_PASSWORD: adminPassword, ADMIN_SECOND_FACTOR: 'optional' };

/** A database of the backend's kind, already migrated and seeded for PGlite; PostgreSQL gets a schema of its own. */
async function prepare(
  backend: Backend,
): Promise<{ env: Record<string, string | undefined>; dispose(): Promise<void> }> {
  if (backend === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-admin-cli-'));
    const client = await PGlite.create({
      dataDir: join(dataDir, 'pglite'),
      loadDataDir: await pgliteSnapshot(),
      extensions: pgliteExtensions,
    });
    await client.close();
    return {
      env: { ...accounts, DATA_DIR: dataDir, DATABASE_URL: undefined },
      dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const url = process.env.DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await pool.query(`CREATE SCHEMA ${schema}`);
  const separator = url.includes('?') ? '&' : '?';
  // The signing key (which the reset codes' HMAC derives from) is generated into DATA_DIR: the command and the API share it.
  const keysDir = mkdtempSync(join(tmpdir(), 'portal-admin-cli-keys-'));
  return {
    // The command and the API read only DATABASE_URL: the schema travels in it as the connection's search_path.
    env: {
      ...accounts,
      DATA_DIR: keysDir,
      DATABASE_URL: `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    },
    async dispose() {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await pool.end();
      rmSync(keysDir, { recursive: true, force: true });
    },
  };
}

for (const backend of backends) {
  describe(backend, () => {
    let env: Record<string, string | undefined>;
    let dispose: () => Promise<void>;
    let api: ApiProcess | undefined;
    let opsPassword: string;
    let tempPassword: string;

    before(async () => {
      ({ env, dispose } = await prepare(backend));
    });
    after(async () => {
      await api?.stop();
      await dispose();
    });

    it('creates an administrator, lists the administrators, refuses an email taken', async () => {
      const created = await admin(env, 'crear-admin', 'Ops@Example.com', '--nombre', 'Olga', '--apellido', 'Operaria');
      assert.equal(created.code, 0, shown(created));
      assert.match(created.stdout, /^Administrador creado: ops@example\.com\n/);
      opsPassword = printedPassword(created);

      const list = await admin(env, 'listar-admins');
      assert.equal(list.code, 0, shown(list));
      assert.match(list.stdout, new RegExp(`${adminEmail.replace('.', '\\.')}\\s+Administrador\\s+activa`));
      assert.match(list.stdout, /ops@example\.com\s+Olga Operaria\s+activa/);
      assert.match(list.stdout, /2 administradores, 2 activos\./);

      const again = await admin(env, 'crear-admin', 'ops@example.com');
      assert.equal(again.code, 1);
      // A line of its own: on a busy machine a background statement's log line may come before it on stderr.
      assert.match(
        again.stderr,
        /^ops@example\.com ya es administrador\. Si perdió la contraseña: npm run admin -- restablecer-clave ops@example\.com/m,
      );
    });

    it('registers, changes, lists, rotates and deletes an OpenID Connect client; a bad one is refused in Spanish', async () => {
      // A public client that signs in on devices only has no browser to come back to: no return address needed.
      const kiosk = await admin(env, 'crear-cliente-oidc', 'Quiosco', '--publico', '--dispositivos');
      assert.equal(kiosk.code, 0, shown(kiosk));
      assert.match(kiosk.stdout, /Cliente público: sin secreto\./);
      const kioskId = /client_id: (\S+)/.exec(kiosk.stdout)?.[1] ?? '';

      const created = await admin(
        env,
        'crear-cliente-oidc',
        'Panel de planta',
        '--redireccion',
        'https://planta.example.com/callback',
        '--redireccion',
        'https://planta.example.com/otra',
        '--primera-parte',
        '--permisos',
        'openid,email',
        '--sujeto',
        'numerico',
        '--dispositivos',
      );
      assert.equal(created.code, 0, shown(created));
      const clientId = /client_id: (\S+)/.exec(created.stdout)?.[1] ?? '';
      const secret = printedPassword(created);
      assert.ok(clientId && secret.length >= 43, shown(created));

      // Only what is named changes: the type, the scopes and the secret stay.
      const changed = await admin(
        env,
        'modificar-cliente-oidc',
        clientId,
        '--nombre',
        'Panel de planta 2',
        '--redireccion',
        'https://planta.example.com/nueva',
        '--tras-cerrar',
        'https://planta.example.com/adios',
        '--cierre-sesion',
        'https://planta.example.com/canal',
        '--inicio-sesion',
        'https://planta.example.com/iniciar',
        '--tercera-parte',
        '--sujeto',
        'por_cliente',
        '--sin-dispositivos',
      );
      assert.equal(changed.code, 0, shown(changed));
      assert.match(changed.stdout, new RegExp(`^Cliente modificado:\nPanel de planta 2 \\(${clientId}\\)\n`));
      assert.match(changed.stdout, /\n {2}dispositivos \(RFC 8628\): no\n$/);
      assert.doesNotMatch(changed.stdout, /client_secret/, 'still confidential: no new secret');
      const badChange = await admin(
        env,
        'modificar-cliente-oidc',
        clientId,
        '--inicio-sesion',
        'http://planta.example.com/i',
      );
      assert.equal(badChange.code, 1, shown(badChange));
      assert.match(
        badChange.stderr,
        /^URI de inicio de sesión: 'http:\/\/planta\.example\.com\/i' no es válida \(debe usar https/,
      );

      const listed = await admin(env, 'clientes-oidc');
      assert.equal(listed.code, 0, shown(listed));
      assert.equal(
        listed.stdout,
        [
          `Panel de planta 2 (${clientId})`,
          '  tipo: confidencial, tercera parte',
          '  redirección: https://planta.example.com/nueva',
          '  tras cerrar sesión: https://planta.example.com/adios',
          '  cierre de sesión (canal trasero): https://planta.example.com/canal',
          '  inicio de sesión desde el portal: https://planta.example.com/iniciar',
          '  permisos: openid email',
          '  identificador de la persona (sub): por_cliente (distinto en cada app)',
          '  dispositivos (RFC 8628): no',
          '',
          `Quiosco (${kioskId})`,
          '  tipo: público, tercera parte',
          '  redirección: ninguna',
          '  tras cerrar sesión: ninguna',
          '  cierre de sesión (canal trasero): ninguna',
          '  inicio de sesión desde el portal: ninguna',
          '  permisos: openid profile email offline_access',
          '  identificador de la persona (sub): opaco (un id aleatorio, igual en todas las apps opaco)',
          '  dispositivos (RFC 8628): sí',
          '',
        ].join('\n'),
        'every address, the refused change written nowhere, never the secret',
      );

      const refused = await admin(env, 'crear-cliente-oidc', 'Malo', '--redireccion', 'http://malo.example.com/cb');
      assert.equal(refused.code, 1, shown(refused));
      assert.match(refused.stderr, /URIs de redirección: 'http:\/\/malo\.example\.com\/cb' no es válida/);

      const rotated = await admin(env, 'rotar-secreto-oidc', clientId);
      assert.equal(rotated.code, 0, shown(rotated));
      assert.notEqual(printedPassword(rotated), secret);
      const gone = await admin(env, 'eliminar-cliente-oidc', clientId);
      assert.equal(gone.code, 0, shown(gone));
      assert.match(gone.stdout, /eliminado, con todos sus tokens/);
      // Refused before any database is opened: not a client id.
      const badId = await admin(env, 'rotar-secreto-oidc', 'no válido');
      assert.equal(badId.code, 2);
    });

    it('says so for an unknown email and changes nothing', async () => {
      for (const order of ['suspender', 'restablecer-clave', 'promover']) {
        const result = await admin(env, order, 'nadie@example.com');
        assert.equal(result.code, 1, shown(result));
        assert.equal(result.stderr, 'No existe ninguna cuenta con el email nadie@example.com.\n');
      }
    });

    it('never leaves the portal without an active administrator', async () => {
      const demoted = await admin(env, 'degradar', adminEmail);
      assert.equal(demoted.code, 0, shown(demoted));
      assert.match(demoted.stdout, /ya no es administrador\. Sus sesiones se han cerrado\./);
      for (const order of ['degradar', 'suspender']) {
        const refused = await admin(env, order, 'ops@example.com');
        assert.equal(refused.code, 1, shown(refused));
        assert.match(
          refused.stderr,
          /^ops@example\.com: es el último administrador activo\. Crea o promueve otro antes/,
        );
      }
      const promoted = await admin(env, 'promover', adminEmail);
      assert.equal(promoted.code, 0, shown(promoted));
      assert.match(promoted.stdout, /ahora es administrador/);
      const list = await admin(env, 'listar-admins');
      assert.match(list.stdout, /2 administradores, 2 activos\./);
    });

    it('sets a one-time password: the old one stops working, the new one signs in; the log names the operator, for the clients too', async () => {
      const reset = await admin(env, 'restablecer-clave', adminEmail);
      assert.equal(reset.code, 0, shown(reset));
      tempPassword = printedPassword(reset);
      assert.notEqual(tempPassword, adminPassword);

      api = await startApi(env);
      assert.equal((await signIn(api, adminEmail, adminPassword)).status, 401);
      const signedIn = await signIn(api, adminEmail, tempPassword);
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
      assert.equal((await signIn(api, 'ops@example.com', opsPassword)).status, 200);

      const log = await get(api, '/admin/auditoria?limit=50&targetType=user', signedIn.token!);
      assert.equal(log.status, 200);
      const entries = log.body.data
        .map(({ actorId, actorEmail, action, targetLabel, details }) => ({
          actorId,
          actorEmail,
          action,
          targetLabel,
          details,
        }))
        .reverse();
      const operator = { actorId: null, actorEmail: 'operador (CLI)' };
      assert.deepEqual(entries, [
        { ...operator, action: 'user.create', targetLabel: 'ops@example.com', details: { role: 1 } },
        { ...operator, action: 'user.edit', targetLabel: adminEmail, details: { role: 2 } },
        { ...operator, action: 'user.edit', targetLabel: adminEmail, details: { role: 1 } },
        { ...operator, action: 'user.password_reset', targetLabel: adminEmail, details: { method: 'temporal' } },
      ]);
      // The client's orders, each written as the panel's are; the change names the fields it changed.
      const clientLog = await get(api, '/admin/auditoria?limit=50&targetType=oidc_client', signedIn.token!);
      assert.deepEqual(
        clientLog.body.data.map(({ actorEmail, action, details }) => [actorEmail, action, details.fields]).reverse(),
        [
          ['operador (CLI)', 'oidc_client.create', undefined],
          ['operador (CLI)', 'oidc_client.create', undefined],
          [
            'operador (CLI)',
            'oidc_client.update',
            [
              'nombre',
              'redirectUris',
              'postLogoutRedirectUris',
              'backchannelLogoutUri',
              'initiateLoginUri',
              'primeraParte',
              // Created numerico and for devices: both named in the change.
              'sujeto',
              'dispositivos',
            ],
          ],
          ['operador (CLI)', 'oidc_client.rotate_secret', undefined],
          ['operador (CLI)', 'oidc_client.delete', undefined],
        ],
      );
    });

    if (backend === 'pglite') {
      it('refuses to open the embedded database while the API holds it, and ends sessions once the API is stopped', async () => {
        const session = (await signIn(api!, 'ops@example.com', opsPassword)).token!;
        const refused = await admin(env, 'suspender', adminEmail);
        assert.equal(refused.code, 1, shown(refused));
        assert.match(
          refused.stderr,
          new RegExp(
            `^La API está en marcha \\(pid ${api!.child.pid}\\) y tiene abierta la base de datos embebida de `,
          ),
        );
        assert.match(refused.stderr, /Detén la API \(Ctrl-C en npm start\) y repite la orden/);
        // The API was not disturbed.
        assert.equal((await get(api!, '/auth/user', session)).status, 200);

        await api!.stop();
        const demoted = await admin(env, 'degradar', 'ops@example.com');
        assert.equal(demoted.code, 0, shown(demoted));
        api = await startApi(env);
        // The token issued before the demotion is refused: the session ended.
        assert.equal((await get(api, '/auth/user', session)).status, 401);
        const again = await signIn(api, 'ops@example.com', opsPassword);
        assert.equal(again.status, 200);
        assert.equal((await get(api, '/admin/dashboard', again.token!)).status, 403);
      });
    } else {
      it('works while the API runs: demotion and suspension end the sessions at once, a reset code arrives by mail', async () => {
        const session = (await signIn(api!, 'ops@example.com', opsPassword)).token!;
        assert.equal((await get(api!, '/admin/dashboard', session)).status, 200);

        const demoted = await admin(env, 'degradar', 'ops@example.com');
        assert.equal(demoted.code, 0, shown(demoted));
        assert.equal((await get(api!, '/auth/user', session)).status, 401);
        const asUser = (await signIn(api!, 'ops@example.com', opsPassword)).token!;
        assert.equal((await get(api!, '/admin/dashboard', asUser)).status, 403);

        const suspended = await admin(env, 'suspender', 'ops@example.com');
        assert.equal(suspended.code, 0, shown(suspended));
        assert.equal(
          (await get(api!, '/auth/user', asUser)).status,
          403,
          'the suspended session is told why (USER_SUSPENDED)',
        );
        assert.notEqual((await signIn(api!, 'ops@example.com', opsPassword)).status, 200);
        const twice = await admin(env, 'suspender', 'ops@example.com');
        assert.equal(twice.code, 0, shown(twice));
        assert.match(twice.stdout, /ya estaba suspendida: nada que cambiar/);

        const reactivated = await admin(env, 'reactivar', 'ops@example.com');
        assert.equal(reactivated.code, 0, shown(reactivated));
        assert.equal((await signIn(api!, 'ops@example.com', opsPassword)).status, 200);

        // Without SMTP_URL the mail is printed where the command runs, as the API prints it.
        const mailed = await admin(env, 'restablecer-clave', 'ops@example.com', '--por-correo');
        assert.equal(mailed.code, 0, shown(mailed));
        const code = /Asunto: Tu código para cambiar la contraseña: (\d{6})/.exec(mailed.stdout)?.[1];
        assert.ok(code, shown(mailed));
        const changed = await fetch(`${api!.url}/auth/change-password`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'ops@example.com', code, newPassword: 'nueva-clave-ops' }),
        });
        assert.equal(changed.status, 200, await changed.text());
        assert.equal((await signIn(api!, 'ops@example.com', 'nueva-clave-ops')).status, 200);

        const statusLog = await get(
          api!,
          '/admin/auditoria?action=user.status_change',
          (await signIn(api!, adminEmail, tempPassword)).token!,
        );
        assert.deepEqual(statusLog.body.data.map((entry) => [entry.actorEmail, entry.details]).reverse(), [
          ['operador (CLI)', { from: 'active', to: 'suspended' }],
          ['operador (CLI)', { from: 'suspended', to: 'active' }],
        ]);
      });
    }
  });
}
