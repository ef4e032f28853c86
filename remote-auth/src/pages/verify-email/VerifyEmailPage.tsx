import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import styled from 'styled-components';
import {
  Alert,
  ApiError,
  Button,
  errorMessage,
  FALLBACK,
  REGISTRATION_EXPIRED_CODE,
  registrationIdFor,
  resendVerification,
  TextField,
  theme,
  useSession,
  useSubmit,
  verifyRegistration,
  useTimedMessage,
} from '@portal/shared';
import { isCompleteCode, sanitizeCode } from '../../rules/forms';
import { AuthLayout, Form, LinkButton, Row, TextLink } from '../../components/AuthLayout';
import { useResendCooldown } from '../../hooks/timers';
import { redirectQuery, useAfterSignIn } from '../../hooks/useAfterSignIn';
import { useResend } from '../../hooks/useResend';
import { NewPasswordFields, ProfileFields } from '../../components/AccountFields';
import type { VerificationArrival } from '../../rules/verification-arrival';
import { useTypedAccount } from './useTypedAccount';

/** Spec §4, §9. */
export const RESEND_COOLDOWN_S = 60;
export const ERROR_CLEAR_MS = 5000;

const CodeInput = styled(TextField)`
  font-size: 1.5rem;
  letter-spacing: 0.4em;
  text-align: center;
  font-variant-numeric: tabular-nums;
`;

const Email = styled.strong`
  color: ${theme.color.text};
  overflow-wrap: anywhere;
`;

const Fields = styled.div`
  display: flex;
  flex-direction: column;
  gap: inherit;
`;

/**
 * Why the page asks for the profile beside the code: this browser never held the email's registration (the mail's
 * link opened on a phone, another browser), or held one the server or the browser has since forgotten (a day old, or
 * pushed out by newer registrations of the email).
 */
type ProfileAsked = 'other-device' | 'forgotten' | null;

/**
 * /verify-email (spec §2, §4): the 6-digit code from the mail, resend with the server's cooldown (60 s). A browser
 * without a live registration of this email also asks for the profile and password registration asks: the code
 * proves the mailbox, and the account is complete once verified (docs/decisions/0006-registration-ids.md).
 */
export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  // A sign-in of an unverified account lands here with its reason, which /login showed only for a moment (the same
  // navigation notice registration hands to /login, kept on screen here); registration may hand its step 1's profile.
  const arrival = useLocation().state as VerificationArrival | null;
  const pendingEmail = useSession((s) => s.pendingVerificationEmail);
  const startSession = useSession((s) => s.startSession);
  const setPendingVerificationEmail = useSession((s) => s.setPendingVerificationEmail);
  const afterSignIn = useAfterSignIn();
  const email = params.get('email') || pendingEmail;
  const redirectUrl = params.get('redirect_url');
  // Read once: the registration id is forgotten when the code is accepted, and the page must not change under it.
  const [profileAsked, setProfileAsked] = useState<ProfileAsked>(() =>
    email && registrationIdFor(email) ? null : 'other-device',
  );
  const typed = useTypedAccount(email ?? '', arrival?.profile);
  // Asked after a send, the fields appear below the code the person typed: they continue at the first one.
  const { leadToFields } = typed;
  useEffect(() => {
    if (profileAsked === 'forgotten') leadToFields();
  }, [profileAsked, leadToFields]);

  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [activatedToken, setActivatedToken] = useState<string | null>(null);
  const [message, showMessage] = useTimedMessage(ERROR_CLEAR_MS);
  const { busy, submit } = useSubmit(showMessage);
  // The wait comes from the server (after registering, after each resend, and from a refused resend) and survives a
  // reload (docs/decisions/0032-resend-countdown.md).
  const [cooldown, refreshCooldown] = useResendCooldown('verify_email', email ?? '');
  const { resending, resend: sendAndCount } = useResend(email ?? '', resendVerification, showMessage, refreshCooldown);
  const onResend = async () => {
    await sendAndCount();
    refreshCooldown();
  };

  if (activatedToken) {
    return (
      <AuthLayout
        title="Tu cuenta está activa"
        subtitle={
          <>
            Verificamos <Email>{email}</Email>.
          </>
        }
      >
        <Alert tone="info">
          Tu cuenta aún no tiene contraseña, porque el registro no se hizo en este navegador. Para entrar con tu email,
          crea una con «¿Olvidaste tu contraseña?»: te enviaremos un código a este email.
        </Alert>
        <Button
          type="button"
          $block
          onClick={() => navigate(`/forgot-password?email=${encodeURIComponent(email ?? '')}`)}
        >
          Crear contraseña
        </Button>
        <Row>
          <LinkButton onClick={() => afterSignIn(redirectUrl)}>Continuar sin contraseña</LinkButton>
        </Row>
      </AuthLayout>
    );
  }

  if (!email) return <Navigate to={`/register${redirectQuery(redirectUrl)}`} replace />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!isCompleteCode(code) || busy) return;
    void (async () => {
      // The id went away since the page opened (verified or expired in another tab): ask rather than send nothing.
      if (!profileAsked && !registrationIdFor(email)) {
        setProfileAsked('forgotten');
        return;
      }
      // Without a registration here, the typed profile is checked first: a refusal sends nothing.
      const profile = profileAsked ? await typed.checked() : undefined;
      if (profileAsked && !profile) return;
      await submit({
        call: () => verifyRegistration(email, code, profile),
        success: async ({ access_token: token, user, passwordSet }) => {
          await startSession(token, user);
          setPendingVerificationEmail(null);
          // Without this browser's registration the account has no password yet: say so before moving on.
          if (passwordSet === false) setActivatedToken(token);
          else void afterSignIn(redirectUrl);
        },
        failure: (caught) => {
          // The server no longer has this browser's registration; the code is still good for the profile's send.
          if (caught instanceof ApiError && caught.code === REGISTRATION_EXPIRED_CODE) {
            setProfileAsked('forgotten');
            return null;
          }
          return errorMessage(caught, FALLBACK.verifyCode);
        },
      });
    })();
  };

  return (
    <AuthLayout
      title="Verifica tu email"
      subtitle={
        <>
          Enviamos un código de 6 dígitos a <Email>{email}</Email>. Escríbelo para activar tu cuenta.
        </>
      }
    >
      {arrival?.message && <Alert tone={arrival.tone ?? 'info'}>{arrival.message}</Alert>}
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      <Form onSubmit={onSubmit} noValidate>
        <CodeInput
          label="Código de verificación"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          disabled={busy}
          onChange={(e) => setCode(sanitizeCode(e.target.value))}
        />
        {profileAsked && (
          <Fields ref={typed.fieldsRef}>
            <Alert tone="info">
              {profileAsked === 'forgotten'
                ? 'Los datos de tu registro ya no están guardados en el portal (se guardan un día, y de un email solo los 5 registros más recientes). Escríbelos junto al mismo código y elige tu contraseña: tu cuenta quedará con ellos.'
                : 'Este navegador no tiene los datos de tu registro (quizás lo hiciste en otro dispositivo). Escríbelos junto al código y elige tu contraseña: tu cuenta quedará con ellos.'}
            </Alert>
            <ProfileFields {...typed.profile} disabled={busy} onChange={typed.profile.change} />
            <NewPasswordFields {...typed.password} disabled={busy} onChange={typed.password.change} />
            {typed.rulesFailed && <Alert tone="error">{FALLBACK.unexpected}</Alert>}
          </Fields>
        )}
        <Button type="submit" $block disabled={busy || !isCompleteCode(code)}>
          Verificar código
        </Button>
      </Form>
      <Row>
        <TextLink to={`/register${redirectQuery(redirectUrl)}`}>← Volver al registro</TextLink>
        <LinkButton onClick={onResend} disabled={resending || cooldown > 0}>
          {cooldown > 0 ? `Reenviar en ${cooldown}s` : 'Reenviar código'}
        </LinkButton>
      </Row>
    </AuthLayout>
  );
}
