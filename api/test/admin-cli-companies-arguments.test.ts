// `npm run admin -- empresa …` refusing what it cannot run: the company orders in the usage and their wrong
// arguments, as a real process (the compiled command, helpers/admin-command.ts) that opens no database. Once, apart
// from admin-cli-companies.test.ts: nothing here depends on the backend.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { admin, shown } from './helpers/admin-command.js';

describe('empresa: arguments', () => {
  const nowhere = { DATABASE_URL: undefined, DATA_DIR: join(tmpdir(), 'portal-admin-cli-companies-never-opened') };

  it('lists the company orders in the usage', async () => {
    const result = await admin(nowhere, 'ayuda');
    assert.equal(result.code, 0, shown(result));
    assert.match(result.stdout, /empresa crear <nombre>/);
    assert.match(result.stdout, /empresa miembro <id> <email> \[--rol propietario\|administrador\|miembro\]/);
  });

  it('refuses wrong arguments in Spanish with exit code 2, before opening any database', async () => {
    // Each case is a process of its own (seconds each on a busy machine): one per kind of check.
    const cases: Array<[string[], RegExp]> = [
      [['empresa', 'borrar', '1'], /^Orden desconocida: «empresa borrar»\./],
      [['empresa', 'suspender', 'uno'], /^«uno» no es el id de una empresa\./],
      [['empresa', 'crear', 'X', '--rol', 'miembro'], /^empresa crear no lleva --rol\./],
      [
        ['empresa', 'licencia', '1', '2', '--plan', '3', '--puestos', '0', '--vence', '2099-01-01'],
        /^--puestos es un número entero entre 1 y 100 000, no «0»\./,
      ],
      [['empresa', 'miembro', '1', 'a@b.cl', '--rol', 'jefe'], /^--rol es propietario, administrador o miembro/],
    ];
    for (const [args, message] of cases) {
      const result = await admin(nowhere, ...args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${shown(result)}`);
      assert.match(result.stderr, message, args.join(' '));
      assert.match(result.stderr, /Uso: npm run admin/);
      assert.equal(result.stdout, '');
    }
    assert.equal(existsSync(nowhere.DATA_DIR), false, 'no database was opened');
  });
});
