import { create } from 'zustand';
import { listApps } from '../api/apps';
import { errorMessage } from '../api/client';
import { FALLBACK } from '../messages/es';
import type { App } from '../types/entities';

export interface AppsState {
  apps: App[];
  isLoading: boolean;
  error: string | null;
  /** True once a load has finished, so an empty catalogue is not asked for again and again. */
  isLoaded: boolean;
  /** Spec §2: loads page 1, limit 100 when nothing is loaded yet (the launcher and the apps page share it). */
  ensureLoaded(): Promise<void>;
  reload(): Promise<void>;
}

let inFlight: Promise<void> | undefined;

export const useApps = create<AppsState>()((set, get) => ({
  apps: [],
  isLoading: false,
  error: null,
  isLoaded: false,

  ensureLoaded() {
    if (get().isLoaded) return Promise.resolve();
    return get().reload();
  },

  reload() {
    inFlight ??= (async () => {
      set({ isLoading: true, error: null });
      try {
        const page = await listApps();
        set({ apps: page.data, isLoading: false, isLoaded: true });
      } catch (error) {
        set({ isLoading: false, error: errorMessage(error, FALLBACK.listApps) });
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  },
}));

/** Only for tests. */
export function resetAppsForTests(): void {
  inFlight = undefined;
  useApps.setState({ apps: [], isLoading: false, error: null, isLoaded: false });
}
