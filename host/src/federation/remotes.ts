import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { getRuntimeConfig, type RemoteName } from '@portal/shared';
import type { ComponentType } from 'react';

/** Federation names of the remotes; each remote's webpack config uses the same name. */
export const REMOTE_NAMES: Record<RemoteName, string> = {
  auth: 'remoteAuth',
  apps: 'remoteApps',
  admin: 'remoteAdmin',
  calculator: 'remoteCalculator',
};

/** A remote that is not configured, down, or that served something unusable. */
export class RemoteUnavailableError extends Error {
  constructor(readonly remote: RemoteName, detail: string) {
    super(`Remote ${remote} unavailable: ${detail}`);
    this.name = 'RemoteUnavailableError';
  }
}

function remoteEntries(): { name: string; entry: string }[] {
  const { remotes } = getRuntimeConfig();
  return (Object.keys(REMOTE_NAMES) as RemoteName[])
    .filter((remote) => Boolean(remotes[remote]))
    .map((remote) => ({ name: REMOTE_NAMES[remote], entry: remotes[remote] as string }));
}

/** Tells the federation runtime where each configured remote's mf-manifest.json is (runtime config, no rebuild). */
export function registerConfiguredRemotes(): void {
  registerRemotes(remoteEntries());
}

export interface PageModule {
  default: ComponentType;
}

/**
 * Loads `./Module` exposed by a remote. `fresh` re-registers the remote first, so that a retry after a failure
 * fetches the manifest and entry again instead of reusing the failed load.
 */
export async function loadRemotePage(remote: RemoteName, module: string, fresh = false): Promise<PageModule> {
  const name = REMOTE_NAMES[remote];
  const entry = getRuntimeConfig().remotes[remote];
  if (!entry) throw new RemoteUnavailableError(remote, 'not configured');
  if (fresh) registerRemotes([{ name, entry }], { force: true });
  let loaded: PageModule | null | undefined;
  try {
    loaded = await loadRemote<PageModule>(`${name}/${module.replace(/^\.\//, '')}`);
  } catch (error) {
    throw new RemoteUnavailableError(remote, error instanceof Error ? error.message : String(error));
  }
  if (!loaded || typeof loaded.default !== 'function' && typeof loaded.default !== 'object') {
    throw new RemoteUnavailableError(remote, `${module} has no default export`);
  }
  return loaded;
}
