import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  Alert,
  Button,
  changePassword,
  errorMessage,
  FALLBACK,
  forgotPassword,
  PasswordField,
  TextField,
  useTimedMessage,
} from '@portal/shared';
import { passwordResetError, sanitizeCode } from '../../forms/rules';
import { AuthLayout, Form, LinkButton, Row, TextLink } from '../../components/AuthLayout';
import { useDelayed } from '../../hooks/timers';
import { BANNER_MS, NEXT_STEP_MS } from '../forgot-password/ForgotPasswordPage';
import { useResend } from '../../hooks/useResend';

/** /reset-password ('Cambiar contraseña'): the emailed code and a new password; then /login after 2 s. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [code, setCode] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [message, showMessage] = useTimedMessage(BANNER_MS);

  useDelayed(NEXT_STEP_MS, done ? () => navigate('/login') : null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = passwordResetError({ email, code, newPassword, confirmation });
    if (problem) {
      showMessage({ tone: 'error', text: problem });
      return;
    }
    setBusy(true);
    showMessage(null);
    try {
      const { message: text } = await changePassword(email.trim(), code, newPassword);
      showMessage({ tone: 'success', text });
      setDone(true);
    } catch (caught) {
      showMessage({ tone: 'error', text: errorMessage(caught, FALLBACK.changePassword) });
      setBusy(false);
    }
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
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          disabled={busy || done}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          label="Código"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          disabled={busy || done}
          onChange={(e) => setCode(sanitizeCode(e.target.value))}
        />
        <PasswordField
          label="Nueva contraseña"
          autoComplete="new-password"
          value={newPassword}
          disabled={busy || done}
          onChange={(e) => setNewPassword(e.target.value)}
        />
        <PasswordField
          label="Confirmar contraseña"
          autoComplete="new-password"
          value={confirmation}
          disabled={busy || done}
          onChange={(e) => setConfirmation(e.target.value)}
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
