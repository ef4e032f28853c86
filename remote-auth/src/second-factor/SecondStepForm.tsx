import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import {
  Alert,
  ApiError,
  Button,
  type SecondFactorMethod,
  type SecondStep,
  type Session,
  TextField,
  useSubmit,
} from '@portal/shared';
import { Form, LinkButton, Row } from '../components/AuthLayout';
import { PasskeysElsewhere } from '../passkeys/PasskeysElsewhere';
import { passkeyFailure, signInWithCode, signInWithPasskey, TICKET_EXPIRED } from '../passkeys/sign-in';
import { usePasskeySupport } from '../passkeys/usePasskeys';
import { cancelPasskeyCeremony } from '../passkeys/webauthn';
import { TRUST_DEVICE_LABEL } from './trust-device';

const CODE_FAILED = 'No se pudo verificar el código';

const TrustBox = styled.label`
  display: flex;
  align-items: flex-start;
  gap: 10px;
  min-height: 44px;
  padding: 6px 0;
  input { width: 20px; height: 20px; margin: 2px 0 0; flex: none; }
`;

/**
 * How a second factor is proved: a code (the authenticator's or a recovery code), or a passkey; `trust` when the box
 * 'No volver a pedir en este dispositivo durante 30 días' was ticked.
 */
export interface SecondFactorProof<T> {
  withCode(code: string, trust: boolean): Promise<T>;
  withPasskey(trust: boolean): Promise<T>;
}

/**
 * The second step of a password sign-in (docs/decisions/0017-second-factor.md): a code of the authenticator app, a
 * recovery code or a passkey, with the ticket the password earned. An expired ticket sends the person back to the
 * password (`onBack` with why).
 */
export function SecondStepForm({
  step,
  onSignedIn,
  onBack,
}: {
  step: SecondStep;
  onSignedIn: (session: Session) => Promise<void>;
  onBack: (message?: string) => void;
}) {
  return (
    <SecondFactorForm
      methods={step.methods}
      offerTrust={step.trustDevice}
      prove={{
        withCode: (code, trust) => signInWithCode(step.ticket, code, trust),
        withPasskey: (trust) => signInWithPasskey(step.ticket, trust),
      }}
      onProved={onSignedIn}
      onBack={onBack}
    />
  );
}

/**
 * A second factor proved through one of `methods`: the sign-in's second step, or a session proving one when an app
 * asks for it (step-up, docs/decisions/0137-step-up.md). A refusal that ends the attempt (an expired ticket) goes
 * back with its message; `backLabel` names the way back. `offerTrust` shows the box 'No volver a pedir en este
 * dispositivo durante 30 días' (docs/decisions/0143-trusted-devices.md).
 */
export function SecondFactorForm<T>({
  methods,
  offerTrust = false,
  prove,
  onProved,
  onBack,
  backLabel = 'Volver',
}: {
  methods: readonly SecondFactorMethod[];
  offerTrust?: boolean;
  prove: SecondFactorProof<T>;
  onProved: (proved: T) => Promise<void>;
  onBack: (message?: string) => void;
  backLabel?: string;
}) {
  const byCode = methods.includes('totp') || methods.includes('recovery');
  const [recovery, setRecovery] = useState(!methods.includes('totp'));
  const [code, setCode] = useState('');
  const [trust, setTrust] = useState(false);
  const trusted = offerTrust && trust;
  const { busy, message, showMessage, submit } = useSubmit();
  // On an address that cannot use passkeys, the step says where they work instead of offering one.
  const { elsewhere } = usePasskeySupport();

  const attempt = (proof: () => Promise<T>, failure: (caught: unknown) => string) =>
    submit({
      call: proof,
      success: onProved,
      failure: (caught) => {
        if (caught instanceof ApiError && caught.code === TICKET_EXPIRED) {
          onBack(caught.message);
          return null;
        }
        return failure(caught);
      },
    });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim() || busy) return;
    void attempt(
      () => prove.withCode(code, trusted),
      (caught) => (caught instanceof ApiError ? caught.message : CODE_FAILED),
    );
  };

  const withPasskey = () => {
    cancelPasskeyCeremony();
    void attempt(() => prove.withPasskey(trusted), passkeyFailure);
  };

  const switchCode = () => {
    setRecovery((value) => !value);
    setCode('');
    showMessage(null);
  };

  // Before the button that proves the factor: a code's 'Verificar', or the passkey's when there is no code.
  const trustBox = offerTrust && (
    <TrustBox>
      <input type="checkbox" checked={trust} disabled={busy} onChange={(event) => setTrust(event.target.checked)} />
      {TRUST_DEVICE_LABEL}
    </TrustBox>
  );

  return (
    <>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      {byCode ? (
        <Form onSubmit={onSubmit} noValidate>
          <p>
            {recovery
              ? 'Escribe uno de tus códigos de recuperación'
              : 'Escribe el código de 6 dígitos de tu aplicación de autenticación'}
          </p>
          {recovery ? (
            <TextField
              key="recuperacion"
              label="Código de recuperación"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              hint="Por ejemplo: ABCDE-FGHJK"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              disabled={busy}
            />
          ) : (
            <TextField
              key="totp"
              label="Código de verificación"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={8}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              disabled={busy}
            />
          )}
          {trustBox}
          <Button type="submit" $block disabled={busy || !code.trim()}>
            {busy ? 'Verificando...' : 'Verificar'}
          </Button>
          {methods.includes('totp') && methods.includes('recovery') && (
            <Row>
              <LinkButton onClick={switchCode} disabled={busy}>
                {recovery ? 'Usar la aplicación de autenticación' : 'Usar un código de recuperación'}
              </LinkButton>
            </Row>
          )}
        </Form>
      ) : (
        <>
          <p>Usa tu llave de acceso para confirmar que eres tú.</p>
          {trustBox}
        </>
      )}
      {methods.includes('passkey') && elsewhere && (
        <Alert tone="info">
          <PasskeysElsewhere unavailable={elsewhere} />
        </Alert>
      )}
      {methods.includes('passkey') && !elsewhere && (
        <Button $variant={byCode ? 'secondary' : 'primary'} $block disabled={busy} onClick={withPasskey}>
          Usar mi llave de acceso
        </Button>
      )}
      <Row>
        <LinkButton onClick={() => onBack()} disabled={busy}>
          {backLabel}
        </LinkButton>
      </Row>
    </>
  );
}
