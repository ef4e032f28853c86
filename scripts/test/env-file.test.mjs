// .env: `npm start`, `npm run dev` and `scripts/serve.mjs` read the repository's `.env` when there is one (what the
// environment already has wins), and `.env.example` names every variable the API's configuration and the start
// scripts read (docs/configuration.md is checked by configuration-doc.test.mjs).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ROOT } from '../lib/parts.mjs';

const dir = mkdtempSync(path.join(tmpdir(), 'portal-dotenv-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs loadDotEnv on `file` in a child process with `env`; answers what it then sees of the two variables. */
/** @param {string} file @param {Record<string, string>} env */
function loadIn(file, env) {
  const code = `const { loadDotEnv } = await import(${JSON.stringify(path.join(ROOT, 'scripts/lib/parts.mjs'))});
loadDotEnv(${JSON.stringify(file)});
console.log(JSON.stringify({ api: process.env.API_PORT ?? null, host: process.env.HOST_PORT ?? null }));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout);
}

describe('.env for npm start', () => {
  it('fills what the environment lacks and never overrides what it has', () => {
    const file = path.join(dir, '.env');
    writeFileSync(file, 'API_PORT=4100\nHOST_PORT=4180\n');
    assert.deepEqual(loadIn(file, {}), { api: '4100', host: '4180' });
    assert.deepEqual(loadIn(file, { API_PORT: '5000' }), { api: '5000', host: '4180' });
  });

  it('is optional: without the file nothing changes and nothing fails', () => {
    assert.deepEqual(loadIn(path.join(dir, 'no-existe.env'), {}), { api: null, host: null });
  });
});

describe('.env.example', () => {
  // Names in these files that are not variables: the listen error codes and signals.
  const NOT_VARIABLES = new Set(['API', 'EACCES', 'EADDRINUSE', 'EADDRNOTAVAIL', 'SIGINT', 'SIGTERM']);
  const readers = [
    'api/src/config.ts',
    'scripts/lib/parts.mjs',
    'scripts/lib/ports.mjs',
    'scripts/serve.mjs',
    'scripts/start.mjs',
    'scripts/dev.mjs',
    'scripts/lib/portal-run.mjs',
  ];
  /** @type {Set<string>} */
  const read = new Set();
  for (const file of readers) {
    for (const [, dotted, quoted] of readFileSync(path.join(ROOT, file), 'utf8').matchAll(
      /env\.([A-Z][A-Z0-9_]*)|'([A-Z][A-Z0-9_]+)'/g,
    )) {
      const name = dotted ?? quoted ?? '';
      if (!NOT_VARIABLES.has(name)) read.add(name);
    }
  }
  const example = readFileSync(path.join(ROOT, '.env.example'), 'utf8');
  const listed = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map(([, name]) => name));

  it('finds the variables it checks (the configuration is read where this test looks)', () => {
    for (const name of ['DATABASE_URL', 'PORT', 'API_PORT', 'HOST_PORT', 'JWT_PRIVATE_KEY', 'BIND_HOST'])
      assert.ok(read.has(name), name);
  });

  it('.env.example lists every variable the API and the start scripts read', () => {
    assert.deepEqual(
      [...read].filter((name) => !listed.has(name)),
      [],
    );
  });
});
