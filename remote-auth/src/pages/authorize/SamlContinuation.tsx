import { LoadFailed, Spinner, TEXT, useSession } from '@portal/shared';
import { AuthLayout } from '../../components/AuthLayout';
import { AuthorizeProblemScreen } from '../../interaction/AuthorizeProblem';
import { ConsentScreen } from './ConsentScreen';
import { useSamlContinuation } from './useSamlContinuation';

/** The heading while the page works or fails; the consent screen and the problems have their own. */
const TITLE = 'Acceso a una aplicación';

/**
 * /saml/continuar?solicitud=…: where the API sends the browser when a partner app asks the portal to sign the person
 * in with SAML (decision 0100). The same consent as an OpenID Connect app that is not the portal's own.
 */
export function SamlContinuation({ id }: { id: string | null }) {
  const { state, allow, cancel, retry } = useSamlContinuation(id);
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
        <AuthLayout title={TITLE}>
          <LoadFailed message={state.message} onRetry={retry} />
        </AuthLayout>
      );
    default:
      return (
        <AuthLayout title={TITLE}>
          <Spinner label={state.step === 'connecting' ? `Conectando con ${state.app}...` : TEXT.loading} />
        </AuthLayout>
      );
  }
}
