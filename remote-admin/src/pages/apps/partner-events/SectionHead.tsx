import type { ReactNode } from 'react';
import styled from 'styled-components';

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 8px;
  h4, h5 { margin: 0; }
  h4 { font-size: 1rem; }
  h5 { font-size: 0.95rem; }
`;

/**
 * A part of the events panel's title with its action beside it (under it on a narrow screen): the client's 'Eventos'
 * (a level 4 heading) and each receiver's 'Entregas recientes' (level 5). The title's id names the part for readers.
 */
export function SectionHead({
  level,
  id,
  title,
  className,
  children,
}: {
  level: 4 | 5;
  id: string;
  title: string;
  className?: string;
  children: ReactNode;
}) {
  const Heading = level === 4 ? 'h4' : 'h5';
  return (
    <Row className={className}>
      <Heading id={id}>{title}</Heading>
      {children}
    </Row>
  );
}
