import type { ReactNode } from 'react';
import styled, { css } from 'styled-components';
import { theme } from './theme';

/** The raised surface every card, panel and dialog of the portal stands on (one owner for its look). */
export const cardSurface = css`
  background: ${theme.color.surface};
  border-radius: ${theme.radius};
  box-shadow: ${theme.shadow};
`;

export const Card = styled.section`
  ${cardSurface}
  padding: 20px;
`;

export const PageContainer = styled.main`
  max-width: 1200px;
  margin: 0 auto;
  padding: 24px 16px 48px;
`;

const NoticeBox = styled(Card)`
  width: min(560px, calc(100% - 32px));
  margin: 48px auto;
  padding: 24px;
  text-align: center;
  h1 { margin: 0 0 8px; font-size: 1.4rem; }
  h2 { margin: 0 0 8px; font-size: 1.25rem; }
  p { margin: 0 0 16px; color: ${theme.color.muted}; }
`;

/**
 * The centred card that stands in for a page (access denied, a remote that did not load): a heading, a line of
 * detail and what the person can do next. `heading` is h2 where the page around it already has its h1.
 */
export function NoticeCard({
  title,
  detail,
  heading: Heading = 'h1',
  children,
}: {
  title: string;
  detail: string;
  heading?: 'h1' | 'h2';
  children?: ReactNode;
}) {
  return (
    <NoticeBox role="alert">
      <Heading>{title}</Heading>
      <p>{detail}</p>
      {children}
    </NoticeBox>
  );
}
