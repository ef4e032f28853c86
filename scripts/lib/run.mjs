import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { ROOT } from './parts.mjs';

/**
 * Runs a command with inherited output, or its output and errors written to the file `output`; resolves to its exit
 * code.
 * @param {string} command @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, output?: string }} [options]
 * @returns {Promise<number>}
 */
export function run(command, args, { env = process.env, cwd = ROOT, output } = {}) {
  return new Promise((resolve) => {
    const file = output === undefined ? undefined : openSync(output, 'w');
    /** @type {import('node:child_process').StdioOptions} */
    const stdio = file === undefined ? 'inherit' : ['ignore', file, file];
    const child = spawn(command, args, { cwd, env, stdio });
    if (file !== undefined) closeSync(file);
    child.once('error', (error) => {
      console.error(error.message);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
