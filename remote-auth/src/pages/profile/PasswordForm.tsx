import { useState, type FormEvent } from 'react';
import { Alert, Button, errorMessage, FALLBACK, updatePassword, useSession, useSubmit } from '@portal/shared';
import { passwordUpdateError } from '../../rules/forms';
import { Form } from '../../components/AuthLayout';
import { PasswordInput } from '../../components/PasswordInput';

export const PASSWORD_UPDATED = 'Las contraseñas se actualizaron correctamente';

/** 'Contraseña': current and new password; both fields are cleared after every attempt (spec §5). */
export function PasswordForm() {
  const replaceToken = useSession((s) => s.replaceToken);
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const { busy, message, submit } = useSubmit();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setCurrentPassword('');
    setNewPassword('');
    void submit({
      problem: passwordUpdateError(currentPassword, newPassword),
      call: () => updatePassword(currentPassword, newPassword),
      success: ({ access_token: token }) => {
        if (token) replaceToken(token);
        return PASSWORD_UPDATED;
      },
      failure: (caught) =>
        errorMessage(caught, FALLBACK.updatePassword, {
          currentPassword: 'Contraseña actual',
          newPassword: 'Nueva contraseña',
        }),
      afterSuccess: 'ready',
    });
  };

  return (
    <Form onSubmit={onSubmit} noValidate>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      <PasswordInput
        label="Contraseña actual"
        autoComplete="current-password"
        value={currentPassword}
        disabled={busy}
        onChange={setCurrentPassword}
      />
      <PasswordInput
        label="Nueva contraseña"
        hint="Al menos 5 caracteres."
        value={newPassword}
        disabled={busy}
        onChange={setNewPassword}
      />
      <div>
        <Button type="submit" disabled={busy}>
          Actualizar contraseña
        </Button>
      </div>
    </Form>
  );
}
