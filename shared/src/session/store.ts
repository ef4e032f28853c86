import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { ApiError, errorMessage, onUnauthorized } from '../api/client';
import { fetchCurrentUser, logoutCall } from '../api/auth';
import { getRuntimeConfig } from '../config/runtime-config';
import { FALLBACK } from '../messages/es';
import type { User } from '../types/entities';
import { registerInstance } from '../instances';
import { forgetPendingPage, keepPendingPages } from '../redirect/pending-page';
import { AUTH_STORAGE_KEY, isPartnerToken, isTokenValid, readToken, removeToken, writeToken } from './token-storage';

/** The client auth state of spec §3, and the transitions of spec §4. */
export interface SessionState {
  user: User | null;
  token: string | null;
  isAuthenticated: boolean;
  isLoading: boolean;
  error: string | null;
  isInitialized: boolean;
  pendingVerificationEmail: string | null;
  hasShownPresentationModal: boolean;
}

export interface SessionActions {
  /**
   * Start-up, run once: a stored valid token loads the current user; anything else ends anonymous. `settle: false`
   * leaves `isInitialized` to the caller (the shell's start-up, which may still hand the person to a partner app).
   */
  initialize(options?: { settle?: boolean }): Promise<void>;
  /** Stores a token and loads its user (login, verification, social return). */
  startSession(token: string, user?: User): Promise<User>;
  loadCurrentUser(): Promise<User>;
  /**
   * Calls the API's logout (failures only logged) and clears the session. Answers the API's logout chain address when
   * SAML apps take their logout through this browser (the caller goes there instead of /login), else null.
   */
  logout(): Promise<string | null>;
  clearSession(): void;
  /** Editing one's own user replaces the stored user. */
  setUser(user: User): void;
  /** A password update answers with a new token for this session (the old one stops working). */
  replaceToken(token: string): void;
  setPendingVerificationEmail(email: string | null): void;
  setError(error: string | null): void;
  markPresentationShown(): void;
}

export type SessionStore = SessionState & SessionActions;

const ANONYMOUS: Pick<SessionState, 'user' | 'token' | 'isAuthenticated' | 'isLoading' | 'error'> = {
  user: null,
  token: null,
  isAuthenticated: false,
  isLoading: false,
  error: null,
};

let initialization: Promise<void> | undefined;

/** The API's own logout chain only (its fixed path on the API's address): nothing else the answer names is followed. */
function logoutChainAddress(next: unknown): string | null {
  if (typeof next !== 'string') return null;
  const chain = `${getRuntimeConfig().apiBaseUrl}/saml/idp/cierre?cadena=`;
  return next.startsWith(chain) && /^[A-Za-z0-9_-]{43}$/.test(next.slice(chain.length)) ? next : null;
}

export const useSession = create<SessionStore>()(
  persist(
    (set, get) => ({
      ...ANONYMOUS,
      isInitialized: false,
      pendingVerificationEmail: null,
      hasShownPresentationModal: false,

      initialize({ settle = true } = {}) {
        initialization ??= (async () => {
          const token = readToken() ?? get().token;
          if (!isTokenValid(token)) {
            removeToken();
            set({ ...ANONYMOUS, isInitialized: settle });
            return;
          }
          try {
            await get().startSession(token as string);
          } catch {
            // startSession has already removed the token and cleared the session.
          } finally {
            if (settle) set({ isInitialized: true });
          }
        })();
        return initialization;
      },

      async startSession(token, user) {
        // A partner-scoped token is no portal session: nobody is signed in with it.
        if (isPartnerToken(token)) {
          removeToken();
          set({ ...ANONYMOUS, error: FALLBACK.currentUser });
          throw new ApiError(FALLBACK.currentUser, 401);
        }
        writeToken(token);
        keepPendingPages();
        set({ token, isLoading: true, error: null });
        if (user) {
          set({ user, isAuthenticated: true, isLoading: false, hasShownPresentationModal: false });
          return user;
        }
        return get().loadCurrentUser();
      },

      async loadCurrentUser() {
        set({ isLoading: true, error: null });
        try {
          const user = await fetchCurrentUser();
          set({ user, token: readToken(), isAuthenticated: true, isLoading: false, hasShownPresentationModal: false });
          return user;
        } catch (error) {
          // An API that cannot be reached says nothing about the token: it is kept so that a retry can recover.
          const unreachable = error instanceof ApiError && error.status === undefined;
          if (!unreachable) removeToken();
          set({ ...ANONYMOUS, error: errorMessage(error, FALLBACK.currentUser) });
          throw error;
        }
      },

      async logout() {
        forgetPendingPage();
        let next: string | null = null;
        try {
          if (readToken()) next = logoutChainAddress((await logoutCall())?.siguiente);
        } catch (error) {
          console.error('Error al cerrar sesión', error);
        }
        get().clearSession();
        return next;
      },

      clearSession() {
        removeToken();
        set({ ...ANONYMOUS, hasShownPresentationModal: false });
      },

      setUser(user) {
        set({ user });
      },

      replaceToken(token) {
        writeToken(token);
        set({ token });
      },

      setPendingVerificationEmail(email) {
        set({ pendingVerificationEmail: email });
      },

      setError(error) {
        set({ error });
      },

      markPresentationShown() {
        set({ hasShownPresentationModal: true });
      },
    }),
    {
      name: AUTH_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: ({ token, user, isAuthenticated, pendingVerificationEmail }) => ({
        token,
        user,
        isAuthenticated,
        pendingVerificationEmail,
      }),
    },
  ),
);

// A 401 on any authenticated call ends the session (the client removes the token and goes to /login).
onUnauthorized(() => useSession.getState().clearSession());

/** Only for tests: lets initialize() run again. */
export function resetSessionForTests(): void {
  initialization = undefined;
  keepPendingPages();
  useSession.setState({
    ...ANONYMOUS,
    isInitialized: false,
    pendingVerificationEmail: null,
    hasShownPresentationModal: false,
  });
}

registerInstance('session-store');
