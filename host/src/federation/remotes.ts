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
    if (!attempt || !remoteInfo) return undefined;
    const module = retriedModules.get(remoteInfo.name);
    return fetch(retryUrl(url, attempt), init).then(async (response) => {
      const manifest =
        response.ok && module
          ? await response
              .clone()
              .json()
              .catch(() => null)
          : null;
      if (manifest && module) await spendFailedPreloads(url, manifest as ManifestExposes, module);
      return response;
    });
  },
};

/** The module each retried remote is asked for (loadRemotePage), whose files the failed preloads may hold. */
const retriedModules = new Map<string, string>();

/** Longest wait for one of those files before the retry goes on. */
const SPEND_TIMEOUT_MS = 5_000;

interface ManifestExposes {
  exposes?: { path: string; assets?: { js?: { sync?: string[] } } }[];
}

/**
 * The entry's chunks cannot carry the retry's query: the remote's own runtime asks for them at their plain address
 * (its public path), and when it asks for the page's file before the runtime's own preload of it (with the query) has
 * run, the failed preload of that address answers (a CI run met this order). So before the entry loads, each of the
 * module's files that the shell's server announced as a preload (scripts/lib/static-server.mjs: the manifest's sync
 * scripts of the module) is loaded once at its plain address: a failed preload still held is spent on that load, and
 * if there is none, the file simply arrives (a chunk registers itself and waits for the remote's runtime). Never an
 * error: whatever happens, the retry goes on as before.
 */
async function spendFailedPreloads(manifestUrl: string, manifest: ManifestExposes, module: string): Promise<void> {
  const files = manifest.exposes?.find((exposed) => exposed.path === module)?.assets?.js?.sync ?? [];
  await Promise.all(
    files.map(
      (file) =>
        new Promise<void>((resolve) => {
          const script = document.createElement('script');
          script.src = new URL(file, manifestUrl).href;
          // A file that neither loads nor fails in time leaves the retry to go on as before.
          const timer = setTimeout(done, SPEND_TIMEOUT_MS);
          function done() {
            clearTimeout(timer);
            script.remove();
            resolve();
          }
          script.onload = script.onerror = done;
          document.head.appendChild(script);
        }),
    ),
  );
}

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
    retriedModules.set(name, module);
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
