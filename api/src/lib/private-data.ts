import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The data directory holds the signing key and, with PGlite, the database files (write-ahead log included, where
 * codes and hashes pass in clear): no other local user may read them. From here on every file the process creates
 * is for its owner only (umask 077), the directory is 0700, and what an older version left readable is tightened.
 */
export function keepDataPrivate(dataDir: string): void {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  tightenToOwner(dataDir);
}

/** Takes group and other permissions off `path` and everything under it (symbolic links left alone). */
export function tightenToOwner(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if ((stat.mode & 0o077) !== 0) chmodSync(path, stat.mode & 0o700);
  if (stat.isDirectory()) for (const name of readdirSync(path)) tightenToOwner(join(path, name));
}
