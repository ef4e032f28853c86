import { Button, Modal } from '@portal/shared';
import { DialogActions } from '../../components/Page';
import { TEXT_ADMIN } from '../../texts';
import { TEXT_USERS } from './texts';

export interface VerifyDialogProps {
  /** How many people are selected. */
  count: number;
  /** The call is under way: both buttons wait, and Escape does not close the dialog. */
  busy: boolean;
  onConfirm(): void;
  onClose(): void;
}

/**
 * The question before 'Verificar': what activating by hand does to the password typed at registration, and the mail
 * the person gets instead, so that the administrator tells them the right thing.
 */
export function VerifyDialog({ count, busy, onConfirm, onClose }: VerifyDialogProps) {
  return (
    <Modal title={TEXT_USERS.verifyTitle} width="560px" onClose={() => !busy && onClose()}>
      <p>{TEXT_USERS.verifyWhat(count)}</p>
      <p>{TEXT_USERS.verifyPassword}</p>
      <p>{TEXT_USERS.verifyMail(count)}</p>
      <DialogActions>
        <Button $variant="secondary" onClick={onClose} disabled={busy}>
          {TEXT_ADMIN.cancel}
        </Button>
        <Button onClick={onConfirm} disabled={busy}>
          {TEXT_USERS.verify}
        </Button>
      </DialogActions>
    </Modal>
  );
}
