import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { getRuntimeConfig, Spinner, TEXT, useSession } from '@portal/shared';
import { AccessDenied } from '../pages/AccessDenied';
import type { Guard } from '../routes/route-table';
import { decideAccess } from './access';

function Leave({ url }: { url: string }) {
  useEffect(() => {
    window.location.replace(url);
  }, [url]);
  return <Spinner label={TEXT.loading} />;
}

/** Applies a route's guard: renders the page, waits for the session, redirects or denies. */
export function Guarded({ guard, children }: { guard: Guard; children: ReactNode }) {
  const session = useSession();
  const { search } = useLocation();
  const access = decideAccess(guard, session, search, getRuntimeConfig().redirectAllowList);
  switch (access.kind) {
    case 'render':
      return <>{children}</>;
    case 'loading':
      return <Spinner label={TEXT.loading} />;
    case 'denied':
      return <AccessDenied />;
    case 'navigate':
      return <Navigate to={access.to} replace />;
    case 'leave':
      return <Leave url={access.url} />;
  }
}
