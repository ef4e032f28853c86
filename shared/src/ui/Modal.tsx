import { useEffect, useId, useRef, type ReactNode } from 'react';
import styled from 'styled-components';
import { cardSurface } from './Card';
import { focusOrigin, keepTabInside, restoreFocus } from './focus';
import { theme } from './theme';

const Dialog = styled.dialog<{ $height?: string; $width?: string }>`
  padding: 0;
  border: 0;
  ${cardSurface}
  color: ${theme.color.text};
  width: min(${(p) => p.$width ?? '720px'}, calc(100% - 32px));
  max-width: none;
  max-height: calc(100dvh - 32px);
  ${(p) => (p.$height ? `height: min(${p.$height}, calc(100dvh - 32px));` : '')}
  overflow: hidden;
  &::backdrop { background: rgba(15, 23, 42, 0.55); }
  &:not([open]) { display: none; }
`;

const Body = styled.div<{ $fixed: boolean }>`
  box-sizing: border-box;
  height: 100%;
  ${(p) => (p.$fixed ? 'display: flex; flex-direction: column;' : '')}
  max-height: inherit;
  overflow: auto;
  padding: 24px;
  @media (max-width: ${theme.breakpoint.mobile}) { padding: 18px 16px; }
  &:focus { outline: none; }
`;

const Title = styled.h2`
  margin: 0 0 16px;
`;

export interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** A fixed height (CSS length), so that the buttons do not move between steps of different length. */
  height?: string;
  /** The widest the dialog gets (CSS length), for one with little to say; 720px otherwise. */
  width?: string;
}

/**
 * A modal dialog on the native <dialog> opened with showModal(): the rest of the page is inert, Tab stays inside,
 * Escape and a click on the backdrop close it, and focus returns to what opened it (or to the page's heading).
 */
export function Modal({ title, onClose, children, height, width }: ModalProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return undefined;
    const opener = focusOrigin();
    if (!dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    bodyRef.current?.focus();
    const onCancel = (event: Event) => {
      event.preventDefault();
      onCloseRef.current();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onCloseRef.current();
      } else keepTabInside(event, dialog);
    };
    dialog.addEventListener('cancel', onCancel);
    document.addEventListener('keydown', onKey);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      document.removeEventListener('keydown', onKey);
      if (dialog.open && typeof dialog.close === 'function') dialog.close();
      restoreFocus(opener);
    };
  }, []);

  return (
    <Dialog
      ref={dialogRef}
      aria-modal="true"
      aria-labelledby={titleId}
      $height={height}
      $width={width}
      // A press on the backdrop reaches the <dialog> itself; a press inside reaches its content.
      onMouseDown={(event) => event.target === event.currentTarget && onClose()}
    >
      <Body ref={bodyRef} tabIndex={-1} $fixed={Boolean(height)}>
        <Title id={titleId}>{title}</Title>
        {children}
      </Body>
    </Dialog>
  );
}
