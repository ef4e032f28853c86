// `npm test` on a machine without Chromium: the browser step is refused at once with one Spanish line naming the
// command that installs one. "No browser" is simulated: CHROMIUM_PATH pointing nowhere or unset, a PATH without
// Debian's `chromium`, and an empty Playwright browser folder (PLAYWRIGHT_BROWSERS_PATH).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { findChromium } from '../lib/browser.mjs';
import { ROOT } from '../lib/parts.mjs';

const empty = mkdtempSync(path.join(tmpdir(), 'portal-no-browser-'));
after(() => rmSync(empty, { recursive: true, force: true }));

/** An environment without any browser: only an empty folder on PATH and as Playwright's browser folder. */
function noBrowser(extra = {}) {
  /** @type {import('../lib/types.js').Env} */
  const env = { ...process.env, PATH: empty, PLAYWRIGHT_BROWSERS_PATH: empty };
  delete env.CHROMIUM_PATH;
  return { ...env, ...extra };
}

/** @param {string[]} args @param {import('../lib/types.js').Env} env */
function runTests(args, env) {
  const child = spawn(process.execPath, ['scripts/test.mjs', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

const installLine =
  /^No hay Chromium para las pruebas del navegador: .*`apt-get install chromium` \(o `npx playwright install chromium`\).*\n$/;

test('CHROMIUM_PATH pointing nowhere and no other browser: one line with the install command, before any step', async () => {
  const result = await runTests([], noBrowser({ CHROMIUM_PATH: path.join(empty, 'no-existe', 'chromium') }));
  assert.equal(result.code, 1);
  assert.match(result.stderr, installLine);
  assert.match(result.stderr, /CHROMIUM_PATH apunta a .*no-existe\/chromium, que no existe/);
  assert.equal(result.stdout, '', 'no step ran: it stopped before any');
});

test('no CHROMIUM_PATH and no browser anywhere: the same line, for the browser step alone too', async () => {
  const result = await runTests(['navegador'], noBrowser());
  assert.equal(result.code, 1);
  assert.match(result.stderr, installLine);
  assert.match(result.stderr, /o indica su ruta en CHROMIUM_PATH\.\n$/);
  assert.equal(result.stdout, '');
});

test('steps without the browser do not look for one', async () => {
  // PATH has neither a browser nor npm: the API step starts (and fails to find npm) instead of being refused.
  const result = await runTests(['API'], noBrowser());
  assert.match(result.stdout, /=== Pruebas: API \(parte 1 de \d+\)/);
  assert.doesNotMatch(result.stderr, /No hay Chromium/);
});

test('a browser is found in CHROMIUM_PATH, else as `chromium` on PATH', () => {
  const bin = mkdtempSync(path.join(empty, 'bin-'));
  const env = { PATH: bin, PLAYWRIGHT_BROWSERS_PATH: empty };
  const own = path.join(bin, 'mi-navegador');
  writeFileSync(own, '#!/bin/sh\n');
  chmodSync(own, 0o755);
  assert.deepEqual(findChromium({ ...env, CHROMIUM_PATH: own }), { path: own, source: 'CHROMIUM_PATH' });
  // A file that is not executable is no browser.
  const debian = path.join(bin, 'chromium');
  writeFileSync(debian, '#!/bin/sh\n');
  assert.match(findChromium(env).error ?? '', /apt-get install chromium/);
  chmodSync(debian, 0o755);
  assert.deepEqual(findChromium(env), { path: debian, source: 'PATH' });
});
