import { Link } from 'react-router-dom';
import { NoticeCard, PageContainer, TEXT } from '@portal/shared';

/** Spec §2: what a signed-in person who is not an administrator sees in the admin area. */
export function AccessDenied({ fallbackPath = '/' }: { fallbackPath?: string }) {
  return (
    <PageContainer>
      <NoticeCard title={TEXT.accessDenied} detail={TEXT.accessDeniedDetail}>
        <Link to={fallbackPath}>Ir al inicio</Link>
      </NoticeCard>
    </PageContainer>
  );
}
