import { existsSync } from 'node:fs';

/**
 * Reads `.env` (or the given file) into `process.env` when it exists, before the configuration is read; a variable
 * already in the environment wins over the file (Node's own `process.loadEnvFile`). `.env.example` lists them all.
 */
export function loadEnvFile(file = '.env'): boolean {
  if (!existsSync(file)) return false;
  process.loadEnvFile(file);
  return true;
}
