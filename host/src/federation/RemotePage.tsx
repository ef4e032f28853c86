import { Component, lazy, Suspense, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
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

function lazyPage(remote: RemoteName, module: string, fresh: boolean): ComponentType {
  const key = `${remote}/${module}`;
  let page = pages.get(key);
  if (!page || fresh) {
    page = lazy(() => loadRemotePage(remote, module, fresh));
    pages.set(key, page);
  }
  return page;
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
        <Page />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
