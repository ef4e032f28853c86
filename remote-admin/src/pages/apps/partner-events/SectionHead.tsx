import type { ReactNode } from 'react';
import styled from 'styled-components';

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 8px;
  h3, h4, h5 { margin: 0; }
  h3, h4 { font-size: 1rem; }
  h5 { font-size: 0.95rem; }
`;

/**
 * A panel's title under a row of the apps page with its action beside it (under it on a narrow screen): an app's
 * 'Roles' (a level 3 heading), a client's 'Eventos' (level 4) and each receiver's 'Entregas recientes' (level 5). The
 * title's id names the part for readers.
 */
export function SectionHead({
  level,
  id,
  title,
  className,
  children,
}: {
  level: 3 | 4 | 5;
  id: string;
  title: string;
  className?: string;
  children: ReactNode;
}) {
  const Heading = `h${level}` as const;
  return (
    <Row className={className}>
      <Heading id={id}>{title}</Heading>
      {children}
    </Row>
  );
}
