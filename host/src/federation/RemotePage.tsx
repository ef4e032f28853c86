import {
  Component,
  createContext,
  lazy,
  Suspense,
  useContext,
  useEffect,
  useState,
  type ComponentType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import { Button, NoticeCard, Spinner, TEXT, type RemoteName } from '@portal/shared';
import { loadRemotePage } from './remotes';

/** What a page area shows when its remote is down, missing or broken: the rest of the portal keeps working. */
export function RemoteFallback({ onRetry }: { onRetry: () => void }) {
  return (
    <NoticeCard heading="h2" title={TEXT.remoteUnavailable} detail={TEXT.remoteUnavailableDetail}>
      <Button onClick={onRetry}>{TEXT.retry}</Button>
    </NoticeCard>
  );
}

class RemoteErrorBoundary extends Component<{ onRetry: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('No se pudo mostrar el módulo remoto', error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <RemoteFallback onRetry={this.props.onRetry} /> : this.props.children;
  }
}

// One lazy component per exposed module, so that moving between routes does not load a remote twice.
const pages = new Map<string, ComponentType>();

/**
 * Makes a page render at once, without suspending: a page loaded before the first render (the prerendered sign-in
 * pages, whose first render must be the server's markup to hydrate it), or the page itself where there is no
 * federation (the build's prerender, host/prerender).
 */
export function providePage(remote: RemoteName, module: string, page: ComponentType): void {
  pages.set(`${remote}/${module}`, page);
}

/** Loads a remote page ahead of its first render (providePage); false when the remote could not be loaded. */
export async function preloadRemotePage(remote: RemoteName, module: string): Promise<boolean> {
  try {
    providePage(remote, module, (await loadRemotePage(remote, module)).default);
    return true;
  } catch {
    return false;
  }
}

function lazyPage(remote: RemoteName, module: string, fresh: boolean): ComponentType {
  const key = `${remote}/${module}`;
  let page = pages.get(key);
  if (!page || fresh) {
    page = lazy(() => loadRemotePage(remote, module, fresh));
    pages.set(key, page);
  }
  return page;
}

/**
 * Told each time a remote page is on screen. A prerendered page is hydrated after the rest of the shell (React takes a
 * server-rendered Suspense boundary over later, at low priority): this is when its fields are React's.
 */
export const PageShown = createContext<(() => void) | undefined>(undefined);

function Shown() {
  const onShown = useContext(PageShown);
  useEffect(() => onShown?.(), [onShown]);
  return null;
}

/** Renders a page exposed by a remote, with the loading state and the fallback with retry. */
export function RemotePage({ remote, module }: { remote: RemoteName; module: string }) {
  const [attempt, setAttempt] = useState(0);
  const [Page, setPage] = useState(() => lazyPage(remote, module, false));
  const [current, setCurrent] = useState(`${remote}/${module}`);
  if (current !== `${remote}/${module}`) {
    setCurrent(`${remote}/${module}`);
    setPage(() => lazyPage(remote, module, false));
  }
  const retry = () => {
    setPage(() => lazyPage(remote, module, true));
    setAttempt((n) => n + 1);
  };
  return (
    <RemoteErrorBoundary key={`${current}#${attempt}`} onRetry={retry}>
      <Suspense fallback={<Spinner label={TEXT.loading} />}>
        {/* Before the page: its effect runs before the page's own, so what was typed and the focus are handed over
            (hydration.ts) before the page decides where the focus goes. */}
        <Shown />
        <Page />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
