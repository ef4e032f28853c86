import type { ReactNode } from 'react';
import { Button, Modal } from '@portal/shared';
import { Row } from './styles';

/**
 * The question before removing something from the account (a passkey, an app's access): what it means, the removal
 * and 'Cancelar'. While it runs both buttons wait and Escape does not close the dialog.
 */
export function ConfirmRemoval({
  title,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
  width,
  children,
}: {
  title: string;
  confirmLabel: string;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
  width?: string;
  children: ReactNode;
}) {
  return (
    <Modal title={title} width={width} onClose={() => !busy && onCancel()}>
      {children}
      <Row>
        <Button $variant="danger" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
        <Button $variant="secondary" disabled={busy} onClick={onCancel}>
          Cancelar
        </Button>
      </Row>
    </Modal>
  );
}
