import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Button, INTERACTION_PARAM, LoadFailed, Spinner, TEXT, useSession } from '@portal/shared';
import { AuthLayout } from '../../components/AuthLayout';
import { ConsentActions, ConsentText } from '../../components/ConsentParts';
import { AuthorizeProblemScreen } from '../../interaction/AuthorizeProblem';
import { type ContinuationDoor, oidcDoor, samlDoor } from '../../interaction/doors';
import { SAML_CONTINUE_PATH, SAML_REQUEST_PARAM } from '../../interaction/saml';
import { AUTHORIZE_PROBLEM_TITLE } from '../../rules/authorization';
import { StepUpScreen } from '../../second-factor/StepUpScreen';
import { ConsentScreen } from './ConsentScreen';
import { useContinuation } from './useContinuation';

/** The heading while the page works or fails; the consent screen and the problems have their own. */
export const AUTHORIZE_TITLE = 'Acceso a una aplicación';

/**
 * The page of a partner app's sign-in with the portal, whichever door it came through (decision 0115):
 * /autorizar?interaccion=… for OpenID Connect (decision 0056), /saml/continuar?solicitud=… for SAML (decision 0100).
 * Signs in first when needed, asks for a third-party app, says why when the portal refuses, and hands the browser
 * back to the app.
 */
export default function AuthorizePage() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  return pathname === SAML_CONTINUE_PATH ? (
    <Continuation door={samlDoor} id={params.get(SAML_REQUEST_PARAM)} />
  ) : (
    <Continuation door={oidcDoor} id={params.get(INTERACTION_PARAM)} />
  );
}

function Continuation({ door, id }: { door: ContinuationDoor; id: string | null }) {
  const { state, allow, cancel, leave, retry, secondFactorProved, declineSecondFactor } = useContinuation(door, id);
  const email = useSession((s) => s.user?.email ?? '');
  const navigate = useNavigate();

  switch (state.step) {
    case 'problem':
      return <AuthorizeProblemScreen problem={state.problem} />;
    case 'refused':
      return (
        <AuthLayout title={AUTHORIZE_PROBLEM_TITLE} focusTitle>
          <ConsentText>{state.message}</ConsentText>
          {state.error && <Alert tone="error">{state.error}</Alert>}
          <ConsentActions>
            <Button disabled={state.leaving} onClick={leave}>
              {state.leaving ? 'Volviendo...' : 'Volver a la aplicación'}
            </Button>
            <Button $variant="secondary" disabled={state.leaving} onClick={() => navigate('/apps')}>
              Ir a Aplicaciones
            </Button>
          </ConsentActions>
        </AuthLayout>
      );
    case 'second-factor':
      return (
        <StepUpScreen
          app={state.app}
          metodos={state.metodos}
          trustDevice={state.trustDevice}
          leaving={state.leaving}
          error={state.error}
          onProved={secondFactorProved}
          onCancel={declineSecondFactor}
        />
      );
    case 'consent':
      return (
        <ConsentScreen
          details={state.details}
          email={email}
          busy={state.busy}
          error={state.error}
          onAllow={allow}
          onCancel={cancel}
        />
      );
    case 'load-failed':
      return (
        <AuthLayout title={AUTHORIZE_TITLE}>
          <LoadFailed message={state.message} onRetry={retry} />
        </AuthLayout>
      );
    default:
      return (
        <AuthLayout title={AUTHORIZE_TITLE}>
          <Spinner label={state.step === 'connecting' ? `Conectando con ${state.app}...` : TEXT.loading} />
        </AuthLayout>
      );
  }
}
