import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Button, errorMessage, FALLBACK, forgotPassword, useSubmit, useTimedMessage } from '@portal/shared';
import { forgotPasswordError } from '../../rules/forms';
import { AuthLayout, Footer, Form, TextLink } from '../../components/AuthLayout';
import { EmailField } from '../../components/EmailField';
import { BANNER_MS, NEXT_STEP_MS, useDelayed } from '../../hooks/timers';

/**
 * /forgot-password: asks the API to mail a reset code, then goes to /reset-password. `?email=` fills the address: the
 * 'Tu cuenta está activa' mail and /login's answer for an account with no password link here with it.
 */
export default function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [message, showMessage] = useTimedMessage(BANNER_MS);
  const { busy, submit } = useSubmit(showMessage);
  const [sentTo, setSentTo] = useState<string | null>(null);

  useDelayed(NEXT_STEP_MS, sentTo ? () => navigate(`/reset-password?email=${encodeURIComponent(sentTo)}`) : null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit({
      problem: forgotPasswordError(email),
      call: () => forgotPassword(email.trim()),
      success: ({ message: text }) => {
        setSentTo(email.trim());
        return text;
      },
      failure: (caught) => errorMessage(caught, FALLBACK.forgotPassword),
    });
  };

  return (
    <AuthLayout title="Recuperar contraseña" subtitle="Te enviaremos un código a tu email para cambiar la contraseña.">
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      <Form onSubmit={onSubmit} noValidate>
        <EmailField value={email} disabled={busy} onChange={setEmail} />
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
