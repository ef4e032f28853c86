import { type FormEvent, useEffect, useId, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import styled from 'styled-components';
import { Alert, Button, type DeviceRequest, Spinner, TEXT, TextField, theme, useSession } from '@portal/shared';
import { ConsentActions, ConsentText, PermissionList } from '../../components/ConsentParts';
import { AuthLayout, Form } from '../../components/AuthLayout';
import { StepUpScreen } from '../../second-factor/StepUpScreen';
import { useDevice } from './useDevice';

export const DEVICE_TITLE = 'Iniciar sesión en un dispositivo';

const Code = styled.p`
  margin: 0;
  padding: 10px;
  text-align: center;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 1.6rem;
  font-weight: 700;
  letter-spacing: 0.12em;
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius};
`;

const Facts = styled.dl`
  margin: 0;
  display: grid;
  grid-template-columns: auto 1fr;
  gap: 4px 12px;
  dt { color: ${theme.color.muted}; }
  dd { margin: 0; overflow-wrap: anywhere; }
`;

const CodeInput = styled(TextField)`
  text-transform: uppercase;
  letter-spacing: 0.12em;
  font-size: 1.25rem;
`;

// Short, so the line fits beside its label on a phone.
const when = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeStyle: 'short' });

/** The screen that asks: which app, what it may do, the device's address and when it asked, the code to compare. */
function ConfirmScreen({
  request,
  email,
  busy,
  error,
  onAllow,
  onRefuse,
}: {
  request: DeviceRequest;
  email: string;
  busy: 'allow' | 'refuse' | null;
  error: string | null;
  onAllow(): void;
  onRefuse(): void;
}) {
  const app = request.cliente.nombre;
  const listId = useId();
  return (
    <AuthLayout title={`${app} quiere acceder a tu cuenta desde un dispositivo`} focusTitle>
      <ConsentText>
        Has iniciado sesión como <strong>{email}</strong>
      </ConsentText>
      <ConsentText>Comprueba que el dispositivo muestra este código:</ConsentText>
      <Code>{request.codigo}</Code>
      <Facts>
        <dt>Dirección del dispositivo</dt>
        <dd>{request.dispositivo.ip || 'desconocida'}</dd>
        <dt>Pidió el código</dt>
        <dd>{when.format(new Date(request.dispositivo.iniciadoEn))}</dd>
      </Facts>
      <ConsentText id={listId}>{app} podrá:</ConsentText>
      <PermissionList aria-labelledby={listId}>
        {request.permisos.map((permiso) => (
          <li key={permiso.scope}>{permiso.descripcion}</li>
        ))}
      </PermissionList>
      <Alert tone="info">
        Permite el acceso solo si tú empezaste este inicio de sesión en un dispositivo que tienes delante y muestra este
        mismo código. Si alguien te pasó el enlace o el código, pulsa Rechazar.
      </Alert>
      {error && <Alert tone="error">{error}</Alert>}
      <ConsentActions>
        <Button disabled={busy !== null} onClick={onAllow}>
          {busy === 'allow' ? 'Permitiendo...' : 'Permitir'}
        </Button>
        <Button $variant="secondary" disabled={busy !== null} onClick={onRefuse}>
          {busy === 'refuse' ? 'Rechazando...' : 'Rechazar'}
        </Button>
      </ConsentActions>
    </AuthLayout>
  );
}

/**
 * /dispositivo (docs/decisions/0086-device-sign-in.md): the person types the code a panel, a kiosk or a command-line
 * tool shows (or arrives with it in the address), sees who asks, and allows or refuses.
 */
export default function DevicePage() {
  const [params] = useSearchParams();
  const { state, codigo, setCodigo, lookUp, allow, refuse, another, secondFactorProved, declineSecondFactor } =
    useDevice(params.get('codigo') ?? '');
  const email = useSession((s) => s.user?.email ?? '');

  switch (state.step) {
    case 'loading':
      return (
        <AuthLayout title={DEVICE_TITLE}>
          <Spinner label={TEXT.loading} />
        </AuthLayout>
      );
    case 'confirm':
      return (
        <ConfirmScreen
          request={state.request}
          email={email}
          busy={state.busy}
          error={state.error}
          onAllow={allow}
          onRefuse={refuse}
        />
      );
    case 'second-factor':
      return (
        <StepUpScreen
          app={state.request.cliente.nombre}
          metodos={state.request.segundoFactor?.metodos ?? []}
          trustDevice={state.request.segundoFactor?.permiteConfiarDispositivo === true}
          leaving={state.leaving}
          error={state.error}
          onProved={() => void secondFactorProved()}
          onCancel={() => void declineSecondFactor()}
        />
      );
    case 'done':
      return state.allowed ? (
        <AuthLayout title="Listo: vuelve al dispositivo" focusTitle>
          <ConsentText>
            <strong>{state.app}</strong> ya puede usar tu cuenta en el dispositivo. Puedes cerrar esta página.
          </ConsentText>
        </AuthLayout>
      ) : (
        <AuthLayout title="Acceso rechazado" focusTitle>
          <ConsentText>
            El dispositivo no tendrá acceso a tu cuenta. Si quieres iniciar sesión en él, pide un código nuevo en su
            pantalla.
          </ConsentText>
          <Button $variant="secondary" onClick={another}>
            Introducir otro código
          </Button>
        </AuthLayout>
      );
    default:
      return <CodeForm state={state} codigo={codigo} setCodigo={setCodigo} lookUp={lookUp} />;
  }
}

/**
 * The code's form. A refused code brings the focus back to the field, its error read with it: the button, greyed out
 * while the code was checked, would leave the focus to the page.
 */
function CodeForm({
  state,
  codigo,
  setCodigo,
  lookUp,
}: {
  state: { busy: boolean; error: string | null };
  codigo: string;
  setCodigo(value: string): void;
  lookUp(): Promise<void>;
}) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (state.error) input.current?.focus();
  }, [state.error]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!state.busy) void lookUp();
  };
  return (
    <AuthLayout title={DEVICE_TITLE} subtitle="Escribe el código que muestra la pantalla del dispositivo.">
      <Form onSubmit={submit} noValidate>
        <CodeInput
          label="Código del dispositivo"
          name="codigo"
          value={codigo}
          onChange={(event) => setCodigo(event.target.value)}
          placeholder="BCDF-GHJK"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={16}
          ref={input}
          autoFocus
          error={state.error}
          hint="8 letras sin vocales; no importan las mayúsculas ni el guion."
        />
        <Button type="submit" disabled={state.busy || codigo.trim() === ''}>
          {state.busy ? 'Comprobando...' : 'Continuar'}
        </Button>
      </Form>
    </AuthLayout>
  );
}
