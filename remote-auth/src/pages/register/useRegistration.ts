import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import {
  checkEmail,
  clearPendingInvitation,
  companyPagePath,
  errorMessage,
  FALLBACK,
  getRuntimeConfig,
  managesWith,
  register,
  registrationIdFor,
  storePendingPage,
  storePendingRedirect,
  useSession,
  useSubmit,
} from '@portal/shared';
import { loadedPhoneRules, loadPhoneRules, type PhoneRules } from '../../rules/phone-rules';
import { DEFAULT_PHONE_COUNTRY } from '../../rules/phone-countries';
import {
  afterEmailCheck,
  recheckShown,
  type RegistrationDetails,
  validateRegistrationDetails,
} from '../../rules/registration';
import { hasErrors, type FieldErrors, type NewPassword, validateRegistrationPassword } from '../../rules/forms';
import { redirectQuery, useAfterSignIn } from '../../hooks/useAfterSignIn';
import { invitationCodeFor, registrationInvitation } from '../../rules/invitation';
import type { LoginNoticeState } from '../../rules/login-notice';
import type { VerificationArrival } from '../../rules/verification-arrival';

const ALREADY_REGISTERED = 'Este usuario ya está registrado, ingrese para continuar';

const EMPTY_DETAILS: RegistrationDetails = {
  email: '',
  name: '',
  lastName: '',
  phone: { country: DEFAULT_PHONE_COUNTRY, number: '' },
};

/** Step 1 shows no message of its own: its refusals are field errors and its failures go to /login. */
const NO_MESSAGE = () => undefined;

const trimmed = (details: RegistrationDetails): RegistrationDetails => ({
  ...details,
  email: details.email.trim(),
  name: details.name.trim(),
  lastName: details.lastName.trim(),
});

/** The state and transitions of /register's two steps (spec §2, §4, §5); the steps' components only draw them. */
export function useRegistration() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const setPendingVerificationEmail = useSession((s) => s.setPendingVerificationEmail);
  const redirectUrl = params.get('redirect_url');
  const afterSignIn = useAfterSignIn();
  // Opened from an invitation's link: the invited address is typed, and the code proves it (no emailed code).
  const [invitation] = useState(() => registrationInvitation(params));

  // The steps are entries of the browser's history (Back on step 2 returns to step 1 with what was typed). Step 2
  // shows only once step 1 was checked in this visit: after a reload it starts again at step 1.
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
    if (!form || form.contains(document.activeElement)) return;
    // The first field left to type: an invitation's link has typed the email already.
    const inputs = [...form.querySelectorAll<HTMLInputElement>('input')];
    (inputs.find((input) => input.value === '') ?? inputs[0])?.focus();
  }, [step]);
  const focusFirstInvalid = () =>
    setTimeout(() =>
      (step === 2 ? stepTwo : stepOne).current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
    );

  const [details, setDetails] = useState<RegistrationDetails>(() =>
    invitation ? { ...EMPTY_DETAILS, email: invitation.email } : EMPTY_DETAILS,
  );
  const [secret, setSecret] = useState<NewPassword>({ password: '', confirmation: '' });
  const [detailErrors, setDetailErrors] = useState<FieldErrors<keyof RegistrationDetails>>({});
  const [passwordErrors, setPasswordErrors] = useState<FieldErrors<keyof NewPassword>>({});
  const [rulesFailed, setRulesFailed] = useState(false);
  // The email has a registration made elsewhere: step 2 says so and links to where its code is typed, carrying what
  // step 1 took so it is not asked again.
  const [pendingElsewhere, setPendingElsewhere] = useState<{ path: string; state: VerificationArrival } | null>(null);
  const check = useSubmit(NO_MESSAGE);
  const create = useSubmit();

  // The values as last changed, ahead of the render: changes that come before React renders again (what was typed
  // before the page was React's is handed over field after field, in one go) each build on the one before.
  const latest = useRef({ details, secret });

  // Errors show only after a check of the step, which loaded the phone rules.
  const changeDetails = (change: Partial<RegistrationDetails>) => {
    const next = { ...latest.current.details, ...change };
    latest.current.details = next;
    setDetails(next);
    const rules = loadedPhoneRules();
    if (rules) setDetailErrors((shown) => recheckShown(shown, validateRegistrationDetails(trimmed(next), rules)));
  };

  const changePassword = (change: Partial<NewPassword>) => {
    const next = { ...latest.current.secret, ...change };
    latest.current.secret = next;
    setSecret(next);
    setPasswordErrors((shown) => recheckShown(shown, validateRegistrationPassword(next)));
  };

  const verificationPath = (address: string) =>
    `/verify-email?email=${encodeURIComponent(address)}${redirectQuery(redirectUrl, '&')}`;
  const goToLogin = (state: LoginNoticeState) => navigate(`/login${redirectQuery(redirectUrl)}`, { state });

  /**
   * The phone rules when they were not loaded yet (the phone field's focus asks for them, so most visits have them,
   * and then a send runs without waiting, which keeps the refusal's focus in the same render); a chunk that cannot be
   * fetched says so in Spanish, the step as it was.
   */
  const fetchPhoneRules = async (): Promise<PhoneRules | undefined> => {
    try {
      return await loadPhoneRules();
    } catch {
      setRulesFailed(true);
      return undefined;
    }
  };

  const next = async (event: FormEvent) => {
    event.preventDefault();
    const rules = loadedPhoneRules() ?? (await fetchPhoneRules());
    if (!rules) return;
    setRulesFailed(false);
    const sent = trimmed(details);
    const errors = validateRegistrationDetails(sent, rules);
    setDetailErrors(errors);
    if (hasErrors(errors)) {
      focusFirstInvalid();
      return;
    }
    await check.submit({
      call: () => checkEmail(sent.email),
      success: (existing) => {
        const address = existing?.email ?? sent.email;
        const registeredHere = Boolean(registrationIdFor(address));
        const where = afterEmailCheck(existing, registeredHere);
        if (where === 'password') {
          const profile = { name: sent.name, lastName: sent.lastName, phone: sent.phone };
          setPendingElsewhere(
            existing?.status === 'pending_verification'
              ? { path: verificationPath(address), state: { profile } }
              : null,
          );
          setStep(2);
        } else if (where === 'verification') {
          setPendingVerificationEmail(address);
          navigate(verificationPath(address));
        } else goToLogin({ message: ALREADY_REGISTERED, tone: 'info' });
      },
      failure: (caught) => {
        goToLogin({ message: errorMessage(caught, FALLBACK.unexpected), tone: 'error' });
        return null;
      },
      afterSuccess: 'ready',
    });
  };

  const createAccount = async (event: FormEvent) => {
    event.preventDefault();
    const sent = trimmed(details);
    const errors = validateRegistrationPassword(secret);
    setPasswordErrors(errors);
    if (hasErrors(errors)) focusFirstInvalid();
    const rules = loadedPhoneRules() ?? (await fetchPhoneRules());
    if (!rules) return;
    const detailsProblems = validateRegistrationDetails(sent, rules);
    if (hasErrors(detailsProblems)) {
      setDetailErrors(detailsProblems);
      setStep(1);
      return;
    }
    if (hasErrors(errors)) return;
    await create.submit({
      // Checked above, so valid: the API receives and stores E.164 ('+51912345678').
      call: () =>
        register({
          ...sent,
          phone: rules.toE164(sent.phone) ?? '',
          password: secret.password,
          codigoInvitacion: invitationCodeFor(sent.email, invitation),
        }),
      success: async (response) => {
        if ('access_token' in response) {
          // The invitation proved the address and is accepted: signed in at once, and on to the apps; an owner or
          // administrator on to the company's page, where they run it (unless a partner or an app takes them).
          clearPendingInvitation();
          await useSession.getState().startSession(response.access_token, response.user);
          const managed = response.user.empresas?.find(
            (company) => company.estado === 'activo' && managesWith(company.rol),
          );
          if (managed) storePendingPage(companyPagePath(managed.id));
          await afterSignIn(redirectUrl);
          return;
        }
        const registered = response.email || sent.email;
        setPendingVerificationEmail(registered);
        if (redirectUrl) storePendingRedirect(redirectUrl, getRuntimeConfig().redirectAllowList);
        navigate(verificationPath(registered));
      },
      failure: (caught) => errorMessage(caught, FALLBACK.register),
    });
  };

  return {
    step,
    loginPath: `/login${redirectQuery(redirectUrl)}`,
    invitedEmail: invitation?.email ?? null,
    details: {
      values: details,
      errors: detailErrors,
      rulesFailed,
      busy: check.busy,
      formRef: stepOne,
      change: changeDetails,
      next,
    },
    password: {
      values: secret,
      errors: passwordErrors,
      serverError: create.message?.text ?? null,
      busy: create.busy,
      formRef: stepTwo,
      change: changePassword,
      createAccount,
      back: () => setStep(1),
      pendingElsewhere,
    },
  };
}

export type DetailsStepState = ReturnType<typeof useRegistration>['details'];
export type PasswordStepState = ReturnType<typeof useRegistration>['password'];
