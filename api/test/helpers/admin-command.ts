// `npm run admin -- …` as the operator runs it: the compiled command (`node api/dist/admin.js`, helpers/compiled-api.ts)
// as a process of its own (admin-cli.test.ts, backup-restore.test.ts): its exit code and what it printed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compiledApi } from './compiled-api.js';

const apiDir = fileURLToPath(new URL('../../', import.meta.url));

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A result as a failed assertion shows it. */
export const shown = (result: CommandResult) => `exit ${result.code}\n${result.stdout}\n${result.stderr}`;

/** Runs the command with the given API variables (undefined removes one); it is killed after 3 minutes. */
export function admin(env: Record<string, string | undefined>, ...args: string[]): Promise<CommandResult> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...env };
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name];
  const child = spawn(process.execPath, [compiledApi('admin'), ...args], {
    cwd: apiDir,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 180_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    }),
  );
}
