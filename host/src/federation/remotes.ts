import {
  loadRemote,
  registerPlugins,
  registerRemotes,
  type ModuleFederationRuntimePlugin,
} from '@module-federation/enhanced/runtime';
import { getRuntimeConfig, type RemoteName } from '@portal/shared';
import { REMOTE_NAMES, REMOTES } from '@portal/shared/manifest';
import type { ComponentType } from 'react';

/** A remote that is not configured, down, or that served something unusable. */
export class RemoteUnavailableError extends Error {
  constructor(
    readonly remote: RemoteName,
    detail: string,
  ) {
    super(`Remote ${remote} unavailable: ${detail}`);
    this.name = 'RemoteUnavailableError';
  }
}

function remoteEntries(): { name: string; entry: string }[] {
  const { remotes } = getRuntimeConfig();
  return REMOTE_NAMES.filter((remote) => Boolean(remotes[remote])).map((remote) => ({
    name: REMOTES[remote].federationName,
    entry: remotes[remote] as string,
  }));
}

/** How many times each remote (federation name) has been retried after a failure on this page. */
const retries = new Map<string, number>();

/** `url` with the retry's number in its query, so that nothing cached for the plain address answers it. */
export function retryUrl(url: string, attempt: number): string {
  const address = new URL(url, window.location.href);
  address.searchParams.set('reintento', String(attempt));
  return address.toString();
}

/**
 * Why a retry needs its own addresses: the shell's server announces each page's remote files as preloads (Link
 * headers). When the browser cannot reach the remote, those preloads fail, and Chromium keeps a failed preload and
 * hands it, without any request, to the first later load of the same address. A retry would fetch the manifest
 * (consumed already by the first attempt), then get the failed preload for remoteEntry.js and fail again; only a
 * second retry reached the network. After a failure, this plugin loads the remote's manifest and entry with a
 * `reintento` query parameter, which no preload matches (the entry's chunks are addressed from its public path,
 * which the query does not change).
 */
export const retryPlugin: ModuleFederationRuntimePlugin = {
  name: 'portal-remote-retry',
  createScript({ url, remoteInfo }) {
    const attempt = remoteInfo ? retries.get(remoteInfo.name) : undefined;
    if (!attempt) return undefined;
    const script = document.createElement('script');
    script.src = retryUrl(url, attempt);
    return script;
  },
  fetch(url, init, remoteInfo) {
    const attempt = remoteInfo ? retries.get(remoteInfo.name) : undefined;
    return attempt ? fetch(retryUrl(url, attempt), init) : undefined;
  },
};

/** Tells the federation runtime where each configured remote's mf-manifest.json is (runtime config, no rebuild). */
export function registerConfiguredRemotes(): void {
  registerPlugins([retryPlugin]);
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
  const name = REMOTES[remote].federationName;
  const entry = getRuntimeConfig().remotes[remote];
  if (!entry) throw new RemoteUnavailableError(remote, 'not configured');
  if (fresh) {
    retries.set(name, (retries.get(name) ?? 0) + 1);
    registerRemotes([{ name, entry }], { force: true });
  }
  let loaded: PageModule | null | undefined;
  try {
    loaded = await loadRemote<PageModule>(`${name}/${module.replace(/^\.\//, '')}`);
  } catch (error) {
    throw new RemoteUnavailableError(remote, error instanceof Error ? error.message : String(error));
  }
  if (!loaded || (typeof loaded.default !== 'function' && typeof loaded.default !== 'object')) {
    throw new RemoteUnavailableError(remote, `${module} has no default export`);
  }
  return loaded;
}
