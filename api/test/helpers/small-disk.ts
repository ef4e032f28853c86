import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmdirSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A disk of its own that a test fills up and frees again: a tmpfs mounted on a new folder under the OS temp folder. */
export interface SmallDisk {
  readonly dir: string;
  /** Writes zeros into a file of its own until not one more 4 KiB block fits. */
  fill(): Promise<void>;
  /** Deletes that file. */
  free(): Promise<void>;
  /** Gives the disk another size, keeping what is on it (`mount -o remount,size=`). */
  resize(sizeMb: number): Promise<void>;
  unmount(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;

/** Mounting needs root; a developer who is not root needs sudo without a password (`sudo -n`). */
async function privileged(command: string, args: string[]): Promise<void> {
  try {
    if (asRoot) await run(command, args);
    else await run('sudo', ['-n', command, ...args]);
  } catch (error) {
    throw new Error(
      `${command} ${args.join(' ')} failed: a full disk is simulated with a tmpfs, which needs root ` +
        `(or sudo without a password) and a system that allows mounting: ${(error as Error).message}`,
    );
  }
}

const isNoSpace = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOSPC';

/**
 * A tmpfs of `sizeMb` MiB, open to every user (mode 1777: a PostgreSQL cluster on it runs as `postgres`). Unmounted by
 * `unmount`, or when the test process exits without its after hooks.
 */
export async function mountSmallDisk(name: string, sizeMb: number): Promise<SmallDisk> {
  const dir = mkdtempSync(join(tmpdir(), `portal-${name}-`));
  try {
    await privileged('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=1777`, 'tmpfs', dir]);
  } catch (error) {
    rmdirSync(dir);
    throw error;
  }
  let mounted = true;
  const onExit = () => {
    if (!mounted) return;
    try {
      execFileSync(asRoot ? 'umount' : 'sudo', asRoot ? ['-l', dir] : ['-n', 'umount', '-l', dir], { stdio: 'ignore' });
      rmdirSync(dir);
    } catch {}
  };
  process.once('exit', onExit);
  const filler = join(dir, 'filler');
  return {
    dir,
    async fill() {
      const file = await open(filler, 'a');
      try {
        // Big writes first, then smaller ones into what is left, down to tmpfs's page.
        for (let size = 1 << 20; size >= 4096; ) {
          try {
            await file.write(Buffer.alloc(size));
          } catch (error) {
            if (!isNoSpace(error)) throw error;
            size /= 2;
          }
        }
      } finally {
        await file.close();
      }
    },
    async free() {
      rmSync(filler, { force: true });
    },
    async resize(sizeMb) {
      await privileged('mount', ['-o', `remount,size=${sizeMb}m`, dir]);
    },
    async unmount() {
      if (!mounted) return;
      // A process that still holds a file there (a server that did not stop) must not keep the mount: detach it.
      await privileged('umount', [dir]).catch(() => privileged('umount', ['-l', dir]));
      mounted = false;
      process.off('exit', onExit);
      rmdirSync(dir);
    },
  };
}
