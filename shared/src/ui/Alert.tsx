import { useEffect, useRef, type ReactNode } from 'react';
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
  &:focus { outline: 3px solid ${(p) => tones[p.$tone].fg}; outline-offset: 2px; }
`;

/**
 * Errors are announced at once (role alert) and take the focus when they appear or change, so after a refused submit
 * the keyboard and the screen reader are at the message, not left on the button; other tones are polite (role status).
 */
export function Alert({ tone = 'error', children }: { tone?: AlertTone; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const text = typeof children === 'string' ? children : null;
  useEffect(() => {
    if (tone === 'error') box.current?.focus();
  }, [tone, text]);
  return (
    <Box
      ref={box}
      $tone={tone}
      role={tone === 'error' ? 'alert' : 'status'}
      tabIndex={tone === 'error' ? -1 : undefined}
    >
      {children}
    </Box>
  );
}
