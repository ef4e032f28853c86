import { Alert, Button, type SecondFactorMethod } from '@portal/shared';
import { AuthLayout } from '../components/AuthLayout';
import { ConsentActions, ConsentText } from '../components/ConsentParts';
import { proveWithCode, proveWithPasskey } from '../interaction/step-up';
import { SecondFactorForm } from './SecondStepForm';

export const STEP_UP_TITLE = 'Confirma tu identidad';

/** Where a second factor is set up: the 'Seguridad' tab of /perfil. */
export const SECURITY_TAB_PATH = '/perfil?tab=seguridad';

/** 'Continuar a la aplicación' before this session proved (or set up) a second factor. */
export const SECOND_FACTOR_NOT_YET =
  'Todavía no tienes un segundo factor en esta sesión. Configúralo en Mi perfil, pestaña Seguridad, e inténtalo de nuevo.';

export interface StepUpScreenProps {
  /** The app's name, as the screens show it. */
  app: string;
  /** How the person can prove a second factor now; empty: they have none yet. */
  metodos: readonly SecondFactorMethod[];
  /**
   * 'No volver a pedir en este dispositivo durante 30 días' is offered: it spares the sign-in's second step later,
   * never an app's demand like this one (docs/decisions/0143-trusted-devices.md).
   */
  trustDevice: boolean;
  /** Going back to the app without it: both ways out wait. */
  leaving: boolean;
  error: string | null;
  /** The session proved a second factor (or set one up): the page reads the request again and goes on. */
  onProved(): void;
  /** 'Cancelar': the app is told its requirements were not met. */
  onCancel(): void;
}

const proof = { withCode: proveWithCode, withPasskey: proveWithPasskey };

/**
 * An app asked for a second factor this session has not proved (step-up, docs/decisions/0137-step-up.md), through
 * whichever door (/autorizar, /saml/continuar, /dispositivo): the
 * second step of the sign-in, in this same session; or, for a person with none yet, the way to set one up ('Seguridad'
 * in another tab, whose setup this session proves) and on to the app after.
 */
export function StepUpScreen({ app, metodos, trustDevice, leaving, error, onProved, onCancel }: StepUpScreenProps) {
  return (
    <AuthLayout title={STEP_UP_TITLE} focusTitle>
      {error && <Alert tone="error">{error}</Alert>}
      {metodos.length > 0 ? (
        <>
          <ConsentText>{app} pide que confirmes tu identidad con tu segundo factor.</ConsentText>
          <SecondFactorForm
            methods={metodos}
            offerTrust={trustDevice}
            prove={proof}
            onProved={async () => onProved()}
            onBack={() => onCancel()}
            backLabel={leaving ? 'Volviendo...' : 'Cancelar'}
          />
        </>
      ) : (
        <>
          <ConsentText>
            {app} pide un segundo factor y aún no tienes uno. Configura una aplicación de autenticación o una llave de
            acceso en{' '}
            <a href={SECURITY_TAB_PATH} target="_blank" rel="noopener">
              Mi perfil, pestaña Seguridad
            </a>{' '}
            (se abre en otra pestaña) y vuelve aquí para continuar.
          </ConsentText>
          <ConsentActions>
            <Button disabled={leaving} onClick={onProved}>
              Continuar a la aplicación
            </Button>
            <Button $variant="secondary" disabled={leaving} onClick={onCancel}>
              {leaving ? 'Volviendo...' : 'Cancelar'}
            </Button>
          </ConsentActions>
        </>
      )}
    </AuthLayout>
  );
}
