import { useLocation, useSearchParams } from 'react-router-dom';
import { INTERACTION_PARAM, LoadFailed, Spinner, TEXT, useSession } from '@portal/shared';
import { AuthLayout } from '../../components/AuthLayout';
import { AuthorizeProblemScreen } from '../../interaction/AuthorizeProblem';
import { SAML_CONTINUE_PATH, SAML_REQUEST_PARAM } from '../../interaction/saml';
import { ConsentScreen } from './ConsentScreen';
import { SamlContinuation } from './SamlContinuation';
import { useAuthorization } from './useAuthorization';

/** The heading while the page works or fails; the consent screen and the problems have their own. */
export const AUTHORIZE_TITLE = 'Acceso a una aplicación';

/**
 * /autorizar?interaccion=…: where the API sends the browser when an app's sign-in with the portal needs the person
 * (decision 0056). Signs in first when needed, asks for a third-party app, and hands the browser back to the app.
 * The same page answers a partner app's SAML sign-in at /saml/continuar?solicitud=… (decision 0100).
 */
export default function AuthorizePage() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  if (pathname === SAML_CONTINUE_PATH) return <SamlContinuation id={params.get(SAML_REQUEST_PARAM)} />;
  return <OidcAuthorization params={params} />;
}

function OidcAuthorization({ params }: { params: URLSearchParams }) {
  const { state, allow, cancel, retry } = useAuthorization(params.get(INTERACTION_PARAM));
  const email = useSession((s) => s.user?.email ?? '');

  switch (state.step) {
    case 'problem':
      return <AuthorizeProblemScreen problem={state.problem} />;
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
