import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import {
  Alert,
  ApiError,
  Button,
  FALLBACK,
  INTERACTION_PARAM,
  isInteractionUid,
  login,
  type SecondStep,
  type Session,
  useSession,
  useSubmit,
} from '@portal/shared';
import { AuthLayout, Footer, Form, TextLink } from '../../components/AuthLayout';
import { EmailField } from '../../components/EmailField';
import { PasswordInput } from '../../components/PasswordInput';
import { SocialButtons } from '../../components/SocialButtons';
import { useDelayed } from '../../hooks/timers';
import { redirectQuery, useAfterSignIn } from '../../hooks/useAfterSignIn';
import { PasskeysElsewhere } from '../../passkeys/PasskeysElsewhere';
import { passkeyFailure, signInWithPasskey } from '../../passkeys/sign-in';
import { usePasskeyAutofill, usePasskeySupport } from '../../passkeys/usePasskeys';
import { cancelPasskeyCeremony } from '../../passkeys/webauthn';
import { loginNotice, type LoginNoticeState } from '../../rules/login-notice';
import { pauseButtonText, signInLockText } from '../../rules/sign-in-lock';
import {
  COMPANY_ONLY_TEXT,
  CompanyOnly,
  CompanySignInButton,
  startCompanySignIn,
  useCompanyAccess,
} from './company-access';
import { keepCompanyLinkFrom } from './company-link';
import { InteractionNotice } from './InteractionNotice';
import { SecondStepForm } from '../../second-factor/SecondStepForm';
import { useSignInPause } from './useSignInPause';

/** How long the EMAIL_NOT_VERIFIED message (with its link) stays before the page moves to verification. */
export const VERIFICATION_REDIRECT_MS = 2000;

/**
 * /login (spec §2, §4): email and password, Google and Apple, links to recovery and registration; a passkey (a button,
 * and among the email field's suggestions), and the second step of an account with a second factor. Reached from an
 * app's sign-in with the portal (`?interaccion=`), it names the app; every way in then lands back on /autorizar.
 */
export default function LoginPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const afterSignIn = useAfterSignIn();
  const startSession = useSession((s) => s.startSession);
  const setPendingVerificationEmail = useSession((s) => s.setPendingVerificationEmail);
  const redirectUrl = params.get('redirect_url');
  const interaction = params.get(INTERACTION_PARAM);
  const arrived = location.state as LoginNoticeState | null;
  const notice = loginNotice(params.get('error'), arrived, params.get('provider'));
  // The company's sign-in asked this existing account to prove itself: the tab keeps the link for the next sign-in.
  const [linkNotice] = useState(() => keepCompanyLinkFrom(params));
  const linkEmail = linkNotice?.tone === 'info' ? params.get('email')?.trim() : undefined;

  // A changed password arrives with its address, and so does the company's link: only the password is left to type.
  const knownEmail = arrived?.email ?? linkEmail;
  const [email, setEmail] = useState(knownEmail ?? '');
  const [password, setPassword] = useState('');
  const form = useRef<HTMLFormElement>(null);
  const focusPassword = () =>
    form.current?.querySelector<HTMLInputElement>('input[autocomplete="current-password"]')?.focus();
  useEffect(() => {
    if (knownEmail && !form.current?.contains(document.activeElement)) focusPassword();
  }, [knownEmail]);
  const { busy, message, showMessage, submit } = useSubmit();
  const error = message?.tone === 'error' ? message.text : null;
  const setError = (text: string | null) => showMessage(text ? { tone: 'error', text } : null);
  const [verificationPath, setVerificationPath] = useState<string | null>(null);
  // A sign-in lock holds, or the account has no password yet: the message offers the way in that needs no password
  // (with the address when it is the account's).
  const [choosePassword, setChoosePassword] = useState<string | null>(null);
  const [secondStep, setSecondStep] = useState<SecondStep | null>(null);
  const passkeys = usePasskeySupport();
  // The company whose own sign-in answers for the address typed; when it allows no portal password, its button takes
  // the password form's place.
  const { company, lookUp } = useCompanyAccess(email);
  const companyOnly = company !== null && !company.permitirContrasena;
  // While a pause holds for the address typed, the button waits with it: nothing is sent, so nothing is said.
  const [pausesEnded, setPausesEnded] = useState(0);
  const pause = useSignInPause(email, () => {
    setChoosePassword(null);
    showMessage({ tone: 'info', text: 'Ya puedes intentarlo de nuevo.' });
    setPausesEnded((count) => count + 1);
  });
  // The red box had the focus (a refused sign-in puts it there) and is gone: the person goes on at the password.
  useEffect(() => {
    if (pausesEnded > 0 && document.activeElement === document.body) focusPassword();
  }, [pausesEnded]);

  const onScreen = useRef(true);
  useEffect(() => {
    onScreen.current = true;
    return () => {
      onScreen.current = false;
    };
  }, []);

  // The verification page says again why the person is there: this page's message is on screen for a moment only.
  const arrival: LoginNoticeState = { message: error ?? undefined, tone: 'info' };
  useDelayed(VERIFICATION_REDIRECT_MS, verificationPath ? () => navigate(verificationPath, { state: arrival }) : null);

  /** Every sign-in of this page (password, second step, passkey) lands the same way. */
  const land = async ({ access_token: token, user }: Session) => {
    await startSession(token, user);
    // In the portal the shell's guest guard takes over as soon as the session starts (this page is gone by then)
    // and sends the person on; standalone, the page does it itself. One navigation either way.
    if (onScreen.current) void afterSignIn(redirectUrl);
  };

  // The email field's passkey offer: ended while the second step is shown, and offered again after 'Volver' or a
  // passkey button attempt that did not sign in (that ceremony ended the offer).
  const [autofillRound, setAutofillRound] = useState(0);
  usePasskeyAutofill(land, setError, secondStep ? null : autofillRound);

  const onPasskey = () => {
    if (busy) return;
    cancelPasskeyCeremony();
    setVerificationPath(null);
    void submit({
      call: () => signInWithPasskey(),
      success: land,
      failure: (caught) => {
        setAutofillRound((round) => round + 1);
        return passkeyFailure(caught);
      },
    });
  };

  const backToPassword = (message?: string) => {
    setSecondStep(null);
    setError(message ?? null);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // Enter in the address when only the company's access is left: that is the way in.
    if (companyOnly) {
      if (!busy) void startCompanySignIn(email, redirectUrl);
      return;
    }
    if (!email.trim() || !password || busy || pause.left > 0) return;
    setVerificationPath(null);
    setChoosePassword(null);
    void submit({
      call: () => login(email, password),
      success: land,
      failure: (caught) => {
        const apiError = caught instanceof ApiError ? caught : undefined;
        if (apiError?.code === 'SECOND_FACTOR_REQUIRED' && apiError.secondStep) {
          // The password was right: the second factor next, in place of the form (the quiet passkey offer ends).
          cancelPasskeyCeremony();
          setPassword('');
          setSecondStep(apiError.secondStep);
          return null;
        }
        if (apiError?.code === 'EMAIL_NOT_VERIFIED') {
          const address = email.trim();
          setPendingVerificationEmail(address);
          setVerificationPath(`/verify-email?email=${encodeURIComponent(address)}${redirectQuery(redirectUrl, '&')}`);
        }
        if (apiError?.status === 401 && apiError.retryAfter) {
          pause.start(email, apiError.retryAfter);
          setChoosePassword('/forgot-password');
          return `${apiError.message}. ${signInLockText(apiError.retryAfter)}`;
        }
        // Activated by an administrator, or made with Google or Apple: the password is chosen with a mailed code.
        if (apiError?.code === 'PASSWORD_NOT_SET') {
          setChoosePassword(`/forgot-password?email=${encodeURIComponent(email.trim())}`);
        }
        // The company asks for its own access (its message names the button): the button is looked for at once.
        if (apiError?.code === 'ACCESO_EMPRESA_OBLIGATORIO') lookUp(email);
        return apiError?.message ?? FALLBACK.login;
      },
    });
  };

  if (secondStep) {
    return (
      <AuthLayout title="Verificación en dos pasos">
        {/* Why this browser, a trusted device until now, is asked the code again (decision 0151). */}
        {secondStep.untrustedBecause && <Alert tone="info">{secondStep.untrustedBecause}</Alert>}
        <SecondStepForm step={secondStep} onSignedIn={land} onBack={backToPassword} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Iniciar Sesión">
      {isInteractionUid(interaction) && <InteractionNotice uid={interaction} />}
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      {linkNotice && <Alert tone={linkNotice.tone}>{linkNotice.text}</Alert>}
      {message?.tone === 'info' && <Alert tone="info">{message.text}</Alert>}
      {error && (
        <Alert tone="error">
          {error}
          {verificationPath && (
            <>
              {' '}
              <TextLink to={verificationPath} state={arrival}>
                Ir a verificación de email
              </TextLink>
            </>
          )}
          {choosePassword && (
            <>
              {' '}
              <TextLink to={choosePassword}>¿Olvidaste tu contraseña?</TextLink>
            </>
          )}
        </Alert>
      )}
      <Form ref={form} onSubmit={onSubmit} noValidate>
        <EmailField
          // 'webauthn': the browser may offer this site's passkeys among the suggestions (usePasskeyAutofill).
          autoComplete="username webauthn"
          value={email}
          onChange={setEmail}
          onBlur={() => lookUp(email)}
          disabled={busy}
        />
        {companyOnly ? (
          <CompanyOnly>{COMPANY_ONLY_TEXT}</CompanyOnly>
        ) : (
          <>
            <PasswordInput
              label="Contraseña"
              autoComplete="current-password"
              value={password}
              onChange={setPassword}
              disabled={busy}
            />
            <TextLink to="/forgot-password">¿Olvidaste tu contraseña?</TextLink>
          </>
        )}
        {company && <CompanySignInButton company={company} email={email} redirectUrl={redirectUrl} disabled={busy} />}
        {!companyOnly && (
          <Button
            type="submit"
            $block
            $variant={company ? 'secondary' : undefined}
            disabled={busy || !email.trim() || !password || pause.left > 0}
          >
            {busy ? 'Iniciando sesión...' : pause.left > 0 ? pauseButtonText(pause.left) : 'Iniciar Sesión'}
          </Button>
        )}
      </Form>
      <SocialButtons redirectUrl={redirectUrl} disabled={busy}>
        {/* Shown until the browser is known to lack passkeys (most have them): the prerendered page has it, and the
            buttons below do not move when the scripts find out. On an address that cannot use them (an IP address),
            the page says why and where they work instead. */}
        {passkeys.usable !== false && (
          <Button $variant="secondary" $block disabled={busy} onClick={onPasskey}>
            Iniciar sesión con llave de acceso
          </Button>
        )}
        {passkeys.elsewhere && (
          <Alert tone="info">
            <PasskeysElsewhere unavailable={passkeys.elsewhere} />
          </Alert>
        )}
      </SocialButtons>
      <Footer>
        ¿No tienes una cuenta? <TextLink to={`/register${redirectQuery(redirectUrl)}`}>Registrate</TextLink>
      </Footer>
    </AuthLayout>
  );
}
