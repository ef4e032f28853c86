import styled from 'styled-components';
import { theme } from '@portal/shared';

/** A state in a table row or a heading, coloured by how it reads: fine, a warning, a problem, or neither. */
export type PillTone = 'ok' | 'warning' | 'danger' | 'neutral';

const PILL: Record<PillTone, [string, string]> = {
  ok: [theme.color.success, theme.color.successBg],
  warning: ['#92400e', '#fffbeb'],
  danger: [theme.color.danger, theme.color.dangerBg],
  neutral: [theme.color.muted, theme.color.background],
};

export const StatusPill = styled.span<{ $tone: PillTone }>`
  display: inline-block;
  white-space: nowrap;
  padding: 2px 10px;
  border-radius: 999px;
  font-size: 0.85rem;
  font-weight: 600;
  color: ${(p) => PILL[p.$tone][0]};
  background: ${(p) => PILL[p.$tone][1]};
`;
