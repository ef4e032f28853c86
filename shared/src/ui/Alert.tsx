import type { ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from './theme';

export type AlertTone = 'error' | 'success' | 'info';

const tones: Record<AlertTone, { fg: string; bg: string }> = {
  error: { fg: theme.color.danger, bg: theme.color.dangerBg },
  success: { fg: theme.color.success, bg: theme.color.successBg },
  info: { fg: theme.color.info, bg: theme.color.infoBg },
};

const Box = styled.div<{ $tone: AlertTone }>`
  padding: 12px 14px;
  border-radius: ${theme.radius};
  border: 1px solid ${(p) => tones[p.$tone].fg};
  color: ${(p) => tones[p.$tone].fg};
  background: ${(p) => tones[p.$tone].bg};
`;

/** Errors are announced at once (role alert); other tones politely (role status). */
export function Alert({ tone = 'error', children }: { tone?: AlertTone; children: ReactNode }) {
  return (
    <Box $tone={tone} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </Box>
  );
}
