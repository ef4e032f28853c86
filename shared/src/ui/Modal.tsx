import { useEffect, useId, useRef, type ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from './theme';

const Backdrop = styled.div`
  position: fixed;
  inset: 0;
  background: rgba(15, 23, 42, 0.55);
  display: flex;
  align-items: center;
  justify-content: center;
  padding: 16px;
  z-index: 1000;
`;

const Dialog = styled.div`
  background: ${theme.color.surface};
  border-radius: ${theme.radius};
  box-shadow: ${theme.shadow};
  width: min(720px, 100%);
  max-height: calc(100vh - 32px);
  overflow: auto;
  padding: 24px;
`;

const Title = styled.h2`
  margin: 0 0 16px;
`;

/** A modal dialog: focus moves into it, Escape closes it, focus returns where it was. */
export function Modal({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    dialogRef.current?.focus();
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [onClose]);

  return (
    <Backdrop onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <Dialog ref={dialogRef} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <Title id={titleId}>{title}</Title>
        {children}
      </Dialog>
    </Backdrop>
  );
}
