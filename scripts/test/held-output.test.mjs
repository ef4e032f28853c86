// `npm start` starts the API while the bundles are still building (scripts/start.mjs): what the API prints meanwhile
// (the first administrator's password, a problem) waits until the build's lines are out (scripts/lib/portal-run.mjs).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { it } from 'node:test';
import { holdOutput } from '../lib/portal-run.mjs';

/** A stream that keeps what is written to it. */
function collector() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      text += chunk;
      callback();
    },
  });
  return { stream, text: () => text };
}

it("the API's lines wait until the build's are out, then come in full and what follows flows straight", async () => {
  // Writes two lines, then one more for each line it reads.
  const child = spawn(
    process.execPath,
    [
      '-e',
      `process.stdout.write('Administrador creado: admin@portal.local / clave\\n');
       process.stderr.write('Aviso de la API\\n');
       process.stdin.on('data', () => process.stdout.write('Correo para ana@example.com\\n'));`,
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const stdout = collector();
  const stderr = collector();
  const held = holdOutput(child, { stdout: stdout.stream, stderr: stderr.stream });
  // What the child wrote, as the test sees it beside the hold.
  let written = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk) => {
      written += chunk;
    });
  }
  const wrote = async (/** @type {string} */ text) => {
    while (!written.includes(text)) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  try {
    await wrote('Administrador creado');
    await wrote('Aviso de la API');
    assert.equal(stdout.text(), '', 'nothing shown while the bundles build');

    held.release();
    assert.equal(stdout.text(), 'Administrador creado: admin@portal.local / clave\n');
    assert.equal(stderr.text(), 'Aviso de la API\n');

    child.stdin?.write('\n');
    await wrote('Correo para');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(stdout.text(), 'Administrador creado: admin@portal.local / clave\nCorreo para ana@example.com\n');
    held.release();
    assert.equal(stdout.text(), 'Administrador creado: admin@portal.local / clave\nCorreo para ana@example.com\n');
  } finally {
    child.kill();
  }
});
