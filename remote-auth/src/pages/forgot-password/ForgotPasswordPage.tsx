import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, Button, errorMessage, FALLBACK, forgotPassword, TextField, useTimedMessage } from '@portal/shared';
import { forgotPasswordError } from '../../forms/rules';
import { AuthLayout, Footer, Form, TextLink } from '../../components/AuthLayout';
import { useDelayed } from '../../hooks/timers';

/** Spec §4, §9: banners go after 5 s; after success the page moves on after 2 s. */
export const BANNER_MS = 5000;
export const NEXT_STEP_MS = 2000;

/** /forgot-password: asks the API to mail a reset code, then goes to /reset-password. */
export default function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, showMessage] = useTimedMessage(BANNER_MS);
  const [sentTo, setSentTo] = useState<string | null>(null);

  useDelayed(NEXT_STEP_MS, sentTo ? () => navigate(`/reset-password?email=${encodeURIComponent(sentTo)}`) : null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = forgotPasswordError(email);
    if (problem) {
      showMessage({ tone: 'error', text: problem });
      return;
    }
    setBusy(true);
    showMessage(null);
    try {
      const { message: text } = await forgotPassword(email.trim());
      showMessage({ tone: 'success', text });
      setSentTo(email.trim());
    } catch (caught) {
      showMessage({ tone: 'error', text: errorMessage(caught, FALLBACK.forgotPassword) });
      setBusy(false);
    }
  };

  return (
    <AuthLayout title="Recuperar contraseña" subtitle="Te enviaremos un código a tu email para cambiar la contraseña.">
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      <Form onSubmit={onSubmit} noValidate>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          disabled={busy}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Button type="submit" $block disabled={busy}>
          Enviar código de recuperación
        </Button>
      </Form>
      <Footer>
        <TextLink to="/login">← Volver a iniciar sesión</TextLink>
      </Footer>
    </AuthLayout>
  );
}
