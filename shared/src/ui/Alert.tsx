import { useEffect, useRef, type ReactNode } from 'react';
import styled from 'styled-components';
import { LOST_FOCUS_ATTRIBUTE } from './focus';
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
  /* A message may quote a long token (a TXT record, an address): it wraps instead of widening the page. */
  overflow-wrap: anywhere;
  &:focus { outline: 3px solid ${(p) => tones[p.$tone].fg}; outline-offset: 2px; }
`;

/** How long after an outcome appears it takes the focus a vanished button leaves behind. */
const LOST_FOCUS_WATCH_MS = 5000;

/**
 * Errors are announced at once (role alert) and take the focus when they appear or change, so after a refused submit
 * the keyboard and the screen reader are at the message, not left on the button; other tones are polite (role status).
 * `holdsLostFocus`: the page's message of an action's outcome, which takes the focus when the action's button is gone
 * (a row that changed, a dialog closed whose opener went with it), instead of it falling to the page.
 * `takesFocus`: a form's outcome that takes the focus as an error does, whatever its tone: the form's fields and button
 * wait while it is sent (a browser drops the focus of a disabled one), and the keyboard goes on from its result.
 */
export function Alert({
  tone = 'error',
  holdsLostFocus = false,
  takesFocus = false,
  children,
}: {
  tone?: AlertTone;
  holdsLostFocus?: boolean;
  takesFocus?: boolean;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const text = typeof children === 'string' ? children : null;
  useEffect(() => {
    if (tone === 'error' || takesFocus) {
      box.current?.focus();
      return undefined;
    }
    if (!holdsLostFocus) return undefined;
    // The button may go a moment later (the list is loaded again after the outcome is shown): watched for a while.
    const claim = () => {
      if (document.activeElement === null || document.activeElement === document.body) box.current?.focus();
    };
    claim();
    const watch = setInterval(claim, 100);
    const stop = setTimeout(() => clearInterval(watch), LOST_FOCUS_WATCH_MS);
    return () => {
      clearInterval(watch);
      clearTimeout(stop);
    };
  }, [tone, text, holdsLostFocus, takesFocus]);
  return (
    <Box
      ref={box}
      $tone={tone}
      role={tone === 'error' ? 'alert' : 'status'}
      tabIndex={tone === 'error' || holdsLostFocus || takesFocus ? -1 : undefined}
      {...(holdsLostFocus ? { [LOST_FOCUS_ATTRIBUTE]: '' } : {})}
    >
      {children}
    </Box>
  );
}
