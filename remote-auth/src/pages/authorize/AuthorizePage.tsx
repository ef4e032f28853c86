import { useSearchParams } from 'react-router-dom';
import { INTERACTION_PARAM, LoadFailed, Spinner, TEXT, useSession } from '@portal/shared';
import { AuthLayout } from '../../components/AuthLayout';
import { AuthorizeProblemScreen } from '../../interaction/AuthorizeProblem';
import { ConsentScreen } from './ConsentScreen';
import { useAuthorization } from './useAuthorization';

/** The heading while the page works or fails; the consent screen and the problems have their own. */
export const AUTHORIZE_TITLE = 'Acceso a una aplicación';

/**
 * /autorizar?interaccion=…: where the API sends the browser when an app's sign-in with the portal needs the person
 * (decision 0056). Signs in first when needed, asks for a third-party app, and hands the browser back to the app.
 */
export default function AuthorizePage() {
  const [params] = useSearchParams();
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
