// `npm run admin -- …` refusing what it cannot run: the usage, unknown orders and wrong arguments, as a real process
// (the compiled command, helpers/admin-command.ts) that opens no database. Once, apart from admin-cli.test.ts: nothing
// here depends on the backend.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { admin, shown } from './helpers/admin-command.js';

describe('arguments', () => {
  const nowhere = { DATABASE_URL: undefined, DATA_DIR: join(tmpdir(), 'portal-admin-cli-never-opened') };

  it('without an order, or with `ayuda`, prints the usage and exits 0', async () => {
    for (const args of [[], ['ayuda']]) {
      const result = await admin(nowhere, ...args);
      assert.equal(result.code, 0, shown(result));
      assert.match(result.stdout, /^Uso: npm run admin -- <orden> \[argumentos\]/);
      assert.match(result.stdout, /restablecer-clave <email> --por-correo/);
    }
  });

  it('refuses wrong arguments with the usage and exit code 2, before opening any database', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['borrar', 'a@example.com'], /^Orden desconocida: «borrar»\./],
      [['promover'], /^promover necesita un email\./],
      [['suspender', 'a@example.com', 'b@example.com'], /^suspender necesita un email\./],
      [['crear-admin', 'no-es-un-email'], /^«no-es-un-email» no es un email válido\./],
      [
        ['restablecer-clave', 'a@example.com', '--por-sms'],
        /^Opción desconocida o incompleta para restablecer-clave: --por-sms\./,
      ],
      [['listar-admins', 'extra'], /^listar-admins no lleva argumentos\./],
    ];
    for (const [args, message] of cases) {
      const result = await admin(nowhere, ...args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${shown(result)}`);
      assert.match(result.stderr, message);
      assert.match(result.stderr, /Uso: npm run admin/);
      assert.equal(result.stdout, '');
    }
    // A change of a client that says nothing, or contradicts itself.
    const clientCases: Array<[string[], RegExp]> = [
      [['modificar-cliente-oidc', 'abc'], /^modificar-cliente-oidc necesita al menos un cambio/],
      [['modificar-cliente-oidc', 'abc', '--publico', '--confidencial'], /^--publico y --confidencial no van juntas\./],
      [['modificar-cliente-oidc', 'abc', '--app', 'dos'], /^«dos» no es el id de una app\./],
      [
        ['modificar-cliente-oidc', 'abc', '--sujeto', 'pairwise'],
        /^«pairwise» no es un identificador de la persona: numerico, opaco o por_cliente\./,
      ],
      [
        ['crear-cliente-oidc', 'X', '--redireccion', 'https://x.example.com/cb', '--sujeto', 'uuid'],
        /^«uuid» no es un identificador de la persona: numerico, opaco o por_cliente\./,
      ],
    ];
    for (const [args, message] of clientCases) {
      const result = await admin(nowhere, ...args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${shown(result)}`);
      assert.match(result.stderr, message);
      assert.equal(result.stdout, '');
    }
    assert.equal(existsSync(nowhere.DATA_DIR), false, 'no database was opened');
  });

  it('answers a name of the object prototype as an unknown order, whatever it holds', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const result = await admin(nowhere, name, 'a@example.com');
      assert.equal(result.code, 2, `${name}: ${shown(result)}`);
      assert.match(result.stderr, new RegExp(`^Orden desconocida: «${name}»\\.`), name);
      assert.match(result.stderr, /Uso: npm run admin/);
      assert.equal(result.stdout, '');
    }
    assert.equal(existsSync(nowhere.DATA_DIR), false, 'no database was opened');
  });
});
