import { Alert, Button, errorMessage, Modal, useSubmit } from '@portal/shared';
import { TEXT_ADMIN } from '../texts';
import { DialogActions } from './Page';

export interface ConfirmDialogProps {
  title: string;
  text: string;
  /** The button that does it (danger). */
  confirmLabel: string;
  /** Does it; the page closes the dialog on success. */
  onConfirm(): Promise<void>;
  onClose(): void;
  /** What a failure says when the server gives no message. */
  fallback: string;
}

/**
 * A question before an action that cannot be undone: 'Cancelar' or the action. A failure stays in the dialog with the
 * server's words; both buttons wait while it runs, and Escape does not close it then.
 */
export function ConfirmDialog({ title, text, confirmLabel, onConfirm, onClose, fallback }: ConfirmDialogProps) {
  const { busy, message, submit } = useSubmit();
  return (
    <Modal title={title} width="520px" onClose={() => !busy && onClose()}>
      <p>{text}</p>
      {message && <Alert>{message.text}</Alert>}
      <DialogActions>
        <Button $variant="secondary" onClick={onClose} disabled={busy}>
          {TEXT_ADMIN.cancel}
        </Button>
        <Button
          $variant="danger"
          disabled={busy}
          onClick={() => void submit({ call: onConfirm, failure: (caught) => errorMessage(caught, fallback) })}
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Modal>
  );
}
