import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  Alert,
  Button,
  changePassword,
  errorMessage,
  FALLBACK,
  forgotPassword,
  TextField,
  useSubmit,
  useTimedMessage,
} from '@portal/shared';
import { passwordResetError, sanitizeCode } from '../../rules/forms';
import { AuthLayout, Form, LinkButton, Row, TextLink } from '../../components/AuthLayout';
import { EmailField } from '../../components/EmailField';
import { PasswordInput } from '../../components/PasswordInput';
import { BANNER_MS, NEXT_STEP_MS, useDelayed } from '../../hooks/timers';
import { useResend } from '../../hooks/useResend';
import type { LoginNoticeState } from '../../rules/login-notice';

/** /reset-password ('Cambiar contraseña'): the emailed code and a new password; then /login after 2 s. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [code, setCode] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  // The address and the server's message once changed: /login fills the one in and shows the other.
  const [toLogin, setToLogin] = useState<LoginNoticeState | null>(null);
  const done = toLogin !== null;
  const [message, showMessage] = useTimedMessage(BANNER_MS);
  const { busy, submit } = useSubmit(showMessage);

  useDelayed(NEXT_STEP_MS, toLogin ? () => navigate('/login', { state: toLogin }) : null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit({
      problem: passwordResetError({ email, code, newPassword, confirmation }),
      call: () => changePassword(email.trim(), code, newPassword),
      success: ({ message: text }) => {
        setToLogin({ email: email.trim(), message: text, tone: 'success' });
        return text;
      },
      failure: (caught) => errorMessage(caught, FALLBACK.changePassword),
    });
  };

  const { resending, resend: onResend } = useResend(
    email,
    (address) => forgotPassword(address.trim(), FALLBACK.resend),
    showMessage,
  );

  return (
    <AuthLayout
      title="Cambiar contraseña"
      subtitle="Escribe el código que te enviamos por email y tu nueva contraseña."
    >
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      <Form onSubmit={onSubmit} noValidate>
        <EmailField value={email} disabled={busy || done} onChange={setEmail} />
        <TextField
          label="Código"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          disabled={busy || done}
          onChange={(e) => setCode(sanitizeCode(e.target.value))}
        />
        <PasswordInput label="Nueva contraseña" value={newPassword} disabled={busy || done} onChange={setNewPassword} />
        <PasswordInput
          label="Confirmar contraseña"
          value={confirmation}
          disabled={busy || done}
          onChange={setConfirmation}
        />
        <Button type="submit" $block disabled={busy || done}>
          Cambiar contraseña
        </Button>
      </Form>
      <Row>
        <LinkButton onClick={onResend} disabled={resending || done}>
          Reenviar código
        </LinkButton>
        <TextLink to="/login">Iniciar sesión</TextLink>
      </Row>
    </AuthLayout>
  );
}
