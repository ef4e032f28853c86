// npm run lock:platforms — after `npm install`, records in package-lock.json the other platforms' optional binaries
// (Biome, rspack, unrs-resolver…) that npm leaves out when it writes the lock on one platform with a node_modules
// present, so that `npm ci` installs on every platform (npm/cli#4828). Each added entry carries the version the
// package pins, and the os, cpu and libc read from the binary's name, which is how these packages name them; npm on
// another platform fetches it from the registry like any entry without a `resolved` address (this project's npm
// settings omit them). Entries npm wrote itself are never changed. `--check` only reports, exit 1 if one is missing.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Runs before `npm ci`, so it imports nothing of the workspaces (they are not linked yet). */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'riscv64', 'ppc64', 's390x', 'loong64', 'mips64el', 'wasm32'];

/** The os, cpu and libc a platform binary's name says, e.g. `cli-linux-x64-musl`, `binding-win32-arm64-msvc`. */
/** @param {string} name @returns {{ os?: string[], cpu: string[], libc?: string[] } | null} */
export function platformOf(name) {
  const words = (name.split('/').pop() ?? '').split('-');
  const os = OS.find((word) => words.includes(word));
  const cpu = CPU.find((word) => words.includes(word));
  if (cpu === 'wasm32') return { cpu: ['wasm32'] };
  if (!os || !cpu) return null;
  /** @type {{ os: string[], cpu: string[], libc?: string[] }} */
  const platform = { os: [os], cpu: [cpu] };
  if (os === 'linux') platform.libc = [words.includes('musl') ? 'musl' : 'glibc'];
  return platform;
}

/** Adds the missing entries to a parsed lock file; returns the names added. */
/**
 * @param {{ packages: Record<string, { name?: string, version?: string, dev?: boolean, optional?: boolean,
 *   optionalDependencies?: Record<string, string> }> }} lock
 * @returns {string[]}
 */
export function completeLock(lock) {
  const added = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const nested = `${key}/node_modules/${name}`;
      const hoisted = `node_modules/${name}`;
      if (lock.packages[nested] || lock.packages[hoisted]) continue;
      if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version)) continue; // a range: not a pinned platform binary
      const platform = platformOf(name);
      if (!platform) continue;
      lock.packages[hoisted] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
      added.push(`${name}@${version}`);
    }
  }
  lock.packages = Object.fromEntries(
    Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
  );
  return added;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = path.join(ROOT, 'package-lock.json');
  const lock = JSON.parse(readFileSync(file, 'utf8'));
  const added = completeLock(lock);
  if (process.argv.includes('--check')) {
    if (added.length)
      console.error(`package-lock.json no registra ${added.join(', ')}: ejecuta npm run lock:platforms.`);
    process.exit(added.length ? 1 : 0);
  }
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(added.length ? `Añadidos al lock: ${added.join(', ')}` : 'El lock ya registra todas las plataformas.');
}
