import { Link } from 'react-router-dom';
import { Card, PageContainer, TEXT } from '@portal/shared';

/** Spec §2: what a signed-in person who is not an administrator sees in the admin area. */
export function AccessDenied({ fallbackPath = '/' }: { fallbackPath?: string }) {
  return (
    <PageContainer>
      <Card role="alert">
        <h1>{TEXT.accessDenied}</h1>
        <p>{TEXT.accessDeniedDetail}</p>
        <Link to={fallbackPath}>Ir al inicio</Link>
      </Card>
    </PageContainer>
  );
}
