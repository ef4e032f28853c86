import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import styled from 'styled-components';
import {
  Alert,
  Button,
  checkEmail,
  errorMessage,
  FALLBACK,
  getRuntimeConfig,
  PasswordField,
  register,
  registrationIdFor,
  storePendingRedirect,
  TextField,
  theme,
  useSession,
} from '@portal/shared';
import type { PhoneInput } from '../../forms/phone';
import { loadedPhoneRules, loadPhoneRules, type PhoneRules } from '../../forms/phone-rules';
import { DEFAULT_PHONE_COUNTRY } from '../../forms/phone-countries';
import { type RegistrationDetails, validateRegistrationDetails } from '../../forms/registration';
import { hasErrors, type FieldErrors, type NewPassword, validateRegistrationPassword } from '../../forms/rules';
import { AuthLayout, Footer, Form, Row, TextLink } from '../../components/AuthLayout';
import { PhoneField } from '../../components/PhoneField';
import { redirectQuery } from '../../hooks/useAfterSignIn';
import type { LoginNoticeState } from '../login/notice';

export const ALREADY_REGISTERED = 'Este usuario ya está registrado, ingrese para continuar';

const Step = styled.p`
  margin: 0;
  color: ${theme.color.muted};
  font-weight: 600;
`;

type DetailsField = keyof RegistrationDetails;
type PasswordFieldName = keyof NewPassword;

/** /register (spec §2, §4, §5): a two-step wizard; the email is checked with the server before step 2. */
export default function RegisterPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const setPendingVerificationEmail = useSession((s) => s.setPendingVerificationEmail);
  const redirectUrl = params.get('redirect_url');

  // The steps are entries of the browser's history (Back on step 2 returns to step 1 with what was typed; issue 18,
  // item 7). Step 2 shows only once step 1 was checked in this visit: after a reload it starts again at step 1.
  const location = useLocation();
  const [checked, setChecked] = useState(false);
  const step: 1 | 2 = (location.state as { registerStep?: number } | null)?.registerStep === 2 && checked ? 2 : 1;
  const setStep = (next: 1 | 2) => {
    if (next === 2) {
      setChecked(true);
      navigate({ search: location.search }, { state: { registerStep: 2 } });
    } else if (step === 2) navigate(-1);
  };
  const stepOne = useRef<HTMLFormElement>(null);
  const stepTwo = useRef<HTMLFormElement>(null);
  // Each step opens with the focus on its first field, unless the person is already in one of its fields (typing
  // into the page painted before the scripts ran); a refused step puts it on the first field in error.
  useEffect(() => {
    const form = (step === 2 ? stepTwo : stepOne).current;
    if (form && !form.contains(document.activeElement)) form.querySelector<HTMLElement>('input')?.focus();
  }, [step]);
  const focusFirstInvalid = () =>
    setTimeout(() =>
      (step === 2 ? stepTwo : stepOne).current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
    );
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [lastName, setLastName] = useState('');
  const [phone, setPhone] = useState<PhoneInput>({ country: DEFAULT_PHONE_COUNTRY, number: '' });
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [detailErrors, setDetailErrors] = useState<FieldErrors<DetailsField>>({});
  const [passwordErrors, setPasswordErrors] = useState<FieldErrors<PasswordFieldName>>({});
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const details = (): RegistrationDetails => ({
    email: email.trim(),
    name: name.trim(),
    lastName: lastName.trim(),
    phone,
  });

  // Errors clear when corrected: a field that shows an error is checked again on every change. Errors show only after
  // a check of the step, which loaded the phone rules.
  const recheckDetails = (next: Partial<RegistrationDetails>) => {
    const rules = loadedPhoneRules();
    if (!rules) return;
    const fresh = validateRegistrationDetails({ ...details(), ...next }, rules);
    setDetailErrors((shown) =>
      Object.fromEntries(Object.keys(shown).map((field) => [field, fresh[field as DetailsField]])),
    );
  };

  const recheckPassword = (next: Partial<NewPassword>) => {
    const fresh = validateRegistrationPassword({ password, confirmation, ...next });
    setPasswordErrors((shown) =>
      Object.fromEntries(Object.keys(shown).map((field) => [field, fresh[field as PasswordFieldName]])),
    );
  };

  const verificationPath = (address: string) =>
    `/verify-email?email=${encodeURIComponent(address)}${redirectQuery(redirectUrl, '&')}`;

  const goToLogin = (state: LoginNoticeState) => navigate(`/login${redirectQuery(redirectUrl)}`, { state });

  /**
   * The phone rules when they were not loaded yet (the phone field's focus asks for them, so most visits have them,
   * and then a send runs without waiting); a chunk that cannot be fetched says so in Spanish, the step as it was.
   */
  const [rulesFailed, setRulesFailed] = useState(false);
  const fetchPhoneRules = async (): Promise<PhoneRules | undefined> => {
    try {
      return await loadPhoneRules();
    } catch {
      setRulesFailed(true);
      return undefined;
    }
  };

  const onNext = async (event: FormEvent) => {
    event.preventDefault();
    const rules = loadedPhoneRules() ?? (await fetchPhoneRules());
    if (!rules) return;
    setRulesFailed(false);
    const errors = validateRegistrationDetails(details(), rules);
    setDetailErrors(errors);
    if (hasErrors(errors)) focusFirstInvalid();
    if (hasErrors(errors) || busy) return;
    setBusy(true);
    try {
      const existing = await checkEmail(details().email);
      // A pending email goes to verification only when this browser made its registration; otherwise the person
      // registers too, with a password of their own (somebody else may have registered their address: issue 13).
      if (
        !existing ||
        (existing.status === 'pending_verification' && !registrationIdFor(existing.email ?? details().email))
      ) {
        setStep(2);
      } else if (existing.status !== 'active') {
        setPendingVerificationEmail(existing.email ?? details().email);
        navigate(verificationPath(existing.email ?? details().email));
      } else {
        goToLogin({ message: ALREADY_REGISTERED, tone: 'info' });
      }
    } catch (caught) {
      goToLogin({ message: errorMessage(caught, FALLBACK.unexpected), tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const onCreate = async (event: FormEvent) => {
    event.preventDefault();
    const all = details();
    const errors = validateRegistrationPassword({ password, confirmation });
    setPasswordErrors(errors);
    if (hasErrors(errors)) focusFirstInvalid();
    const rules = loadedPhoneRules() ?? (await fetchPhoneRules());
    if (!rules) return;
    const detailsProblems = validateRegistrationDetails(all, rules);
    if (hasErrors(detailsProblems)) {
      setDetailErrors(detailsProblems);
      setStep(1);
      return;
    }
    if (hasErrors(errors) || busy) return;
    setBusy(true);
    setServerError(null);
    try {
      // Checked above, so valid: the API receives and stores E.164 ('+51912345678').
      const response = await register({ ...all, phone: rules.toE164(all.phone) ?? '', password });
      const registered = response.email || all.email;
      setPendingVerificationEmail(registered);
      if (redirectUrl) storePendingRedirect(redirectUrl, getRuntimeConfig().redirectAllowList);
      navigate(verificationPath(registered));
    } catch (caught) {
      setServerError(errorMessage(caught, FALLBACK.register));
      setBusy(false);
    }
  };

  return (
    <AuthLayout title="Crear cuenta">
      <Step>Paso {step} de 2</Step>
      {step === 1 ? (
        <Form ref={stepOne} onSubmit={onNext} noValidate aria-label="Tus datos" aria-busy={busy}>
          <TextField
            label="Email"
            disabled={busy}
            type="email"
            autoComplete="email"
            value={email}
            error={detailErrors.email}
            onChange={(e) => {
              setEmail(e.target.value);
              recheckDetails({ email: e.target.value });
            }}
          />
          <TextField
            label="Nombre"
            disabled={busy}
            autoComplete="given-name"
            value={name}
            error={detailErrors.name}
            onChange={(e) => {
              setName(e.target.value);
              recheckDetails({ name: e.target.value });
            }}
          />
          <TextField
            label="Apellido"
            disabled={busy}
            autoComplete="family-name"
            value={lastName}
            error={detailErrors.lastName}
            onChange={(e) => {
              setLastName(e.target.value);
              recheckDetails({ lastName: e.target.value });
            }}
          />
          <PhoneField
            value={phone}
            disabled={busy}
            error={detailErrors.phone}
            onChange={(next) => {
              setPhone(next);
              recheckDetails({ phone: next });
            }}
            onFocus={() => void loadPhoneRules().catch(() => undefined)}
          />
          {rulesFailed && <Alert tone="error">{FALLBACK.unexpected}</Alert>}
          <Button type="submit" $block disabled={busy}>
            {busy ? 'Verificando...' : 'Siguiente'}
          </Button>
        </Form>
      ) : (
        <Form ref={stepTwo} onSubmit={onCreate} noValidate aria-label="Tu contraseña">
          {serverError && <Alert tone="error">{serverError}</Alert>}
          <PasswordField
            label="Contraseña"
            autoComplete="new-password"
            value={password}
            error={passwordErrors.password}
            hint="Usa mayúsculas, números y símbolos para una contraseña más segura."
            disabled={busy}
            onChange={(e) => {
              setPassword(e.target.value);
              recheckPassword({ password: e.target.value });
            }}
          />
          <PasswordField
            label="Confirmar contraseña"
            autoComplete="new-password"
            value={confirmation}
            error={passwordErrors.confirmation}
            disabled={busy}
            onChange={(e) => {
              setConfirmation(e.target.value);
              recheckPassword({ confirmation: e.target.value });
            }}
          />
          <Row>
            <Button $variant="secondary" disabled={busy} onClick={() => setStep(1)}>
              Anterior
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Creando cuenta...' : 'Crear cuenta'}
            </Button>
          </Row>
        </Form>
      )}
      <Footer>
        ¿Ya tienes una cuenta? <TextLink to={`/login${redirectQuery(redirectUrl)}`}>Iniciar Sesión</TextLink>
      </Footer>
    </AuthLayout>
  );
}
