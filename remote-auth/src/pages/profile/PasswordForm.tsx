import { useState, type FormEvent } from 'react';
import { Alert, Button, errorMessage, FALLBACK, PasswordField, updatePassword, useSession } from '@portal/shared';
import { passwordUpdateError } from '../../forms/rules';
import { Form } from '../../components/AuthLayout';
import type { TimedMessage } from '@portal/shared';

export const PASSWORD_UPDATED = 'Las contraseñas se actualizaron correctamente';

/** 'Contraseña': current and new password; both fields are cleared after every attempt (spec §5). */
export function PasswordForm() {
  const replaceToken = useSession((s) => s.replaceToken);
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<TimedMessage | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = passwordUpdateError(currentPassword, newPassword);
    setCurrentPassword('');
    setNewPassword('');
    if (problem) {
      setMessage({ tone: 'error', text: problem });
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const { access_token: token } = await updatePassword(currentPassword, newPassword);
      if (token) replaceToken(token);
      setMessage({ tone: 'success', text: PASSWORD_UPDATED });
    } catch (caught) {
      setMessage({
        tone: 'error',
        text: errorMessage(caught, FALLBACK.updatePassword, {
          currentPassword: 'Contraseña actual',
          newPassword: 'Nueva contraseña',
        }),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form onSubmit={onSubmit} noValidate>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      <PasswordField
        label="Contraseña actual"
        autoComplete="current-password"
        value={currentPassword}
        disabled={busy}
        onChange={(e) => setCurrentPassword(e.target.value)}
      />
      <PasswordField
        label="Nueva contraseña"
        autoComplete="new-password"
        hint="Al menos 5 caracteres."
        value={newPassword}
        disabled={busy}
        onChange={(e) => setNewPassword(e.target.value)}
      />
      <div>
        <Button type="submit" disabled={busy}>
          Actualizar contraseña
        </Button>
      </div>
    </Form>
  );
}
