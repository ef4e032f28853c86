import { useRef, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, Modal, TextField } from '@portal/shared';
import { DialogActions } from '../../components/Page';
import { TEXT_ADMIN } from '../../texts';
import { TEXT_APPS } from './texts';

const Body = styled.div`
  display: grid;
  gap: 14px;
  p { margin: 0; }
  code { overflow-wrap: anywhere; }
  input { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
`;

export interface OneTimeSecret {
  nombre: string;
  /** The client the secret is for, shown above it; none for a secret that is not a client's (an event subscription). */
  clientId?: string;
  clientSecret: string;
  /** The dialog's title, the field's label and the warning; a client secret's by default. */
  texts?: { title: string; label: string; once: string };
}

/**
 * A client's secret, just created or rotated: the API shows it this once and keeps only its hash, so the dialog says
 * so and offers 'Copiar'. Closed, it is gone from the page. An event subscription's signing secret is shown the same way.
 */
export function OneTimeSecretDialog({ secret, onClose }: { secret: OneTimeSecret; onClose(): void }) {
  const field = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<'copied' | 'failed' | null>(null);

  const copySecret = async () => {
    try {
      if (!navigator.clipboard) throw new Error('sin portapapeles');
      await navigator.clipboard.writeText(secret.clientSecret);
      setCopy('copied');
    } catch {
      // Pages not served over https (or a browser that refuses) have no clipboard: the text is selected instead.
      field.current?.focus();
      field.current?.select();
      setCopy('failed');
    }
  };

  return (
    <Modal title={secret.texts?.title ?? TEXT_APPS.secretTitle(secret.nombre)} width="560px" onClose={onClose}>
      <Body>
        <Alert tone="info">{secret.texts?.once ?? TEXT_APPS.secretOnce}</Alert>
        {secret.clientId && (
          <p>
            {TEXT_APPS.clientId}: <code>{secret.clientId}</code>
          </p>
        )}
        <TextField
          ref={field}
          label={secret.texts?.label ?? TEXT_APPS.clientSecret}
          value={secret.clientSecret}
          readOnly
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.target.select()}
        />
        {copy === 'copied' && <Alert tone="success">{TEXT_APPS.copied}</Alert>}
        {copy === 'failed' && <Alert tone="info">{TEXT_APPS.copyFailed}</Alert>}
        <DialogActions>
          <Button onClick={() => void copySecret()}>{TEXT_APPS.copy}</Button>
          <Button $variant="secondary" onClick={onClose}>
            {TEXT_ADMIN.close}
          </Button>
        </DialogActions>
      </Body>
    </Modal>
  );
}
