import type { ReactNode } from 'react';
import styled from 'styled-components';
import { cardSurface, theme } from '@portal/shared';

export const StatGrid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(150px, 1fr));
  @media (max-width: ${theme.breakpoint.mobile}) { gap: 10px; }
  gap: 16px;
  margin-bottom: 24px;
`;

const Box = styled.div`
  ${cardSurface}
  padding: 16px 20px;
  h2 { margin: 0 0 6px; font-size: 0.95rem; font-weight: 600; color: ${theme.color.muted}; }
  p.value { margin: 0; font-size: 1.8rem; font-weight: 800; }
  @media (max-width: ${theme.breakpoint.mobile}) {
    padding: 12px 14px;
    p.value { font-size: 1.5rem; }
  }
  p.note { margin: 6px 0 0; font-size: 0.85rem; color: ${theme.color.muted}; }
`;

/** One figure with its title (and an optional note, e.g. the change against last month). */
export function StatCard({ title, value, note }: { title: string; value: ReactNode; note?: string }) {
  return (
    <Box>
      <h2>{title}</h2>
      <p className="value">{value}</p>
      {note && <p className="note">{note}</p>}
    </Box>
  );
}
