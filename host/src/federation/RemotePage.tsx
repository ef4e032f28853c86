import { Component, lazy, Suspense, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { Button, Spinner, TEXT, theme, type RemoteName } from '@portal/shared';
import styled from 'styled-components';
import { loadRemotePage } from './remotes';

const FallbackBox = styled.div`
  width: min(560px, calc(100% - 32px));
  margin: 48px auto;
  padding: 24px;
  text-align: center;
  background: ${theme.color.surface};
  border-radius: ${theme.radius};
  box-shadow: ${theme.shadow};
  h2 { margin: 0 0 8px; font-size: 1.25rem; }
  p { margin: 0 0 16px; color: ${theme.color.muted}; }
`;

/** What a page area shows when its remote is down, missing or broken: the rest of the portal keeps working. */
export function RemoteFallback({ onRetry }: { onRetry: () => void }) {
  return (
    <FallbackBox role="alert">
      <h2>{TEXT.remoteUnavailable}</h2>
      <p>{TEXT.remoteUnavailableDetail}</p>
      <Button onClick={onRetry}>{TEXT.retry}</Button>
    </FallbackBox>
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
