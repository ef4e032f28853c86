// Which Chromium the browser tests use, found before anything runs: CHROMIUM_PATH, else Debian's `chromium` on the
// PATH, else a Chromium that `npx playwright install chromium` put in Playwright's cache. None: one Spanish line that
// names the command installing one, instead of Playwright's executable error minutes later.
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './parts.mjs';

export const INSTALL_HINT = 'instala uno con `apt-get install chromium` (o `npx playwright install chromium`)';

/** @param {string} file */
function executable(file) {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `name` as the shell would find it on `PATH`. */
/** @param {string} name @param {import('./types.js').Env} env */
function onPath(name, env) {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    if (executable(file)) return file;
  }
  return undefined;
}

/** Where Playwright keeps the Chromium it installs (PLAYWRIGHT_BROWSERS_PATH or its cache); undefined if none is there. */
/** @param {import('./types.js').Env} env @returns {string | undefined} */
function playwrightChromium(env) {
  const saved = process.env.PLAYWRIGHT_BROWSERS_PATH;
  try {
    const require = createRequire(path.join(ROOT, 'e2e/package.json'));
    if (env.PLAYWRIGHT_BROWSERS_PATH !== undefined) process.env.PLAYWRIGHT_BROWSERS_PATH = env.PLAYWRIGHT_BROWSERS_PATH;
    const file = require('playwright-core').chromium.executablePath();
    return file && executable(file) ? file : undefined;
  } catch {
    return undefined;
  } finally {
    if (saved === undefined) delete process.env.PLAYWRIGHT_BROWSERS_PATH;
    else process.env.PLAYWRIGHT_BROWSERS_PATH = saved;
  }
}

/**
 * `{ path, source }` of the Chromium to use, or `{ error }`: one line saying what is missing and how to install it.
 * A CHROMIUM_PATH that is set must be right: a mistyped path is reported, not silently replaced by another browser.
 */
export function findChromium(env = process.env) {
  const chosen = env.CHROMIUM_PATH?.trim();
  if (chosen) {
    if (executable(chosen)) return { path: chosen, source: 'CHROMIUM_PATH' };
    return {
      error: `No hay Chromium para las pruebas del navegador: CHROMIUM_PATH apunta a ${chosen}, que no existe o no es ejecutable. Corrige CHROMIUM_PATH o ${INSTALL_HINT}.`,
    };
  }
  for (const name of ['chromium', 'chromium-browser']) {
    const found = onPath(name, env);
    if (found) return { path: found, source: 'PATH' };
  }
  const installed = playwrightChromium(env);
  if (installed) return { path: installed, source: 'Playwright' };
  return {
    error: `No hay Chromium para las pruebas del navegador: ${INSTALL_HINT}, o indica su ruta en CHROMIUM_PATH.`,
  };
}
