import { type FormEvent, type ReactNode, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, errorMessage, TextField, type TotpSetup } from '@portal/shared';
import { RecoveryCodesPanel } from './RecoveryCodesPanel';
import { Badge, Row, Section } from './styles';
import { confirmTotp, disableTotp, isTotpCode, renewRecoveryCodes, startTotp } from './totp-api';
import type { SecurityState } from './useSecurityStatus';

const Qr = styled.img`
  display: block;
  width: 200px;
  height: 200px;
  margin: 12px 0;
  background: #fff;
`;

const Secret = styled.code`
  font-size: 1rem;
  word-break: break-all;
`;

const SIX_DIGITS = 'Escribe los 6 dígitos del código';

/** 'JBSW Y3DP EHPK 3PXP': the secret in groups of four, easier to type. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

type Step = { kind: 'idle' } | { kind: 'setup'; setup: TotpSetup } | { kind: 'renew' } | { kind: 'disable' };

/**
 * 'Verificación en dos pasos': the authenticator app. Off: set it up (QR, the key to type, a code to
 * confirm), then the recovery codes once. On: how many recovery codes are left, new ones, or turn it off.
 */
export function TwoFactorSection({ security }: { security: SecurityState }) {
  const { status, reload } = security;
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const go = (next: Step) => {
    setStep(next);
    setCode('');
    setError(null);
    setNotice(null);
  };

  /** Runs one call: its failure shows the API's message; the status is read again after a change. */
  const run = async (work: () => Promise<void>, fallback: string) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await work();
    } catch (caught) {
      setError(errorMessage(caught, fallback));
    } finally {
      setBusy(false);
    }
  };

  const begin = () =>
    run(async () => {
      const setup = await startTotp();
      go({ kind: 'setup', setup });
    }, 'No se pudo preparar la aplicación de autenticación');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (step.kind !== 'disable' && !isTotpCode(code)) {
      setError(SIX_DIGITS);
      return;
    }
    if (step.kind === 'disable' && !code.trim()) return;
    if (step.kind === 'setup' || step.kind === 'renew') {
      const call = step.kind === 'setup' ? confirmTotp : renewRecoveryCodes;
      void run(async () => {
        const { recoveryCodes } = await call(code);
        go({ kind: 'idle' });
        setCodes(recoveryCodes);
        void reload();
      }, 'No se pudo verificar el código');
    } else if (step.kind === 'disable') {
      void run(async () => {
        await disableTotp(code);
        go({ kind: 'idle' });
        setNotice('Verificación en dos pasos desactivada');
        await reload();
      }, 'No se pudo desactivar la aplicación de autenticación');
    }
  };

  const cancel = (
    <Button $variant="secondary" disabled={busy} onClick={() => go({ kind: 'idle' })}>
      Cancelar
    </Button>
  );

  const codeField = (label: string, hint?: string) => (
    <TextField
      label={label}
      hint={hint}
      inputMode={step.kind === 'disable' ? 'text' : 'numeric'}
      autoComplete="one-time-code"
      value={code}
      onChange={(e) => setCode(e.target.value)}
      disabled={busy}
    />
  );

  let body: ReactNode;
  if (codes) {
    body = <RecoveryCodesPanel codes={codes} onDone={() => setCodes(null)} />;
  } else if (step.kind === 'setup') {
    body = (
      <form onSubmit={submit} noValidate aria-label="Activar aplicación de autenticación">
        <p>
          Escanea este código QR con tu aplicación de autenticación (Google Authenticator, Microsoft Authenticator…).
        </p>
        <Qr src={step.setup.qrCode} alt="Código QR para tu aplicación de autenticación" />
        <p>
          ¿No puedes escanearlo? Escribe esta clave:{' '}
          <Secret data-testid="totp-secret">{grouped(step.setup.secret)}</Secret>
        </p>
        {codeField('Código de 6 dígitos', 'El que muestra la aplicación ahora')}
        <Row>
          <Button type="submit" disabled={busy || !code.trim()}>
            Confirmar
          </Button>
          {cancel}
        </Row>
      </form>
    );
  } else if (status === null) {
    body = security.error ? null : <p>Cargando…</p>;
  } else if (!status.totp) {
    body = (
      <>
        <p>
          Protege tu cuenta: al iniciar sesión con tu contraseña te pediremos también un código de una aplicación de
          autenticación de tu teléfono.
        </p>
        <Button disabled={busy} onClick={begin}>
          Activar aplicación de autenticación
        </Button>
      </>
    );
  } else {
    body = (
      <>
        <p>
          Aplicación de autenticación <Badge>Activada</Badge>
        </p>
        <p>Códigos de recuperación sin usar: {status.recoveryCodesLeft}</p>
        {step.kind === 'renew' && (
          <form onSubmit={submit} noValidate aria-label="Generar códigos nuevos">
            <p>Los códigos de recuperación que tienes dejarán de servir.</p>
            {codeField('Código de 6 dígitos', 'El que muestra la aplicación ahora')}
            <Row>
              <Button type="submit" disabled={busy || !code.trim()}>
                Generar códigos
              </Button>
              {cancel}
            </Row>
          </form>
        )}
        {step.kind === 'disable' && (
          <form onSubmit={submit} noValidate aria-label="Desactivar la aplicación de autenticación">
            <p>¿Desactivar la aplicación de autenticación? Sus códigos de recuperación dejarán de servir.</p>
            {codeField('Código de 6 dígitos o de recuperación')}
            <Row>
              <Button type="submit" $variant="danger" disabled={busy || !code.trim()}>
                Sí, desactivar
              </Button>
              {cancel}
            </Row>
          </form>
        )}
        {step.kind === 'idle' && (
          <Row>
            <Button $variant="secondary" disabled={busy} onClick={() => go({ kind: 'renew' })}>
              Generar códigos nuevos
            </Button>
            <Button $variant="danger" disabled={busy} onClick={() => go({ kind: 'disable' })}>
              Desactivar
            </Button>
          </Row>
        )}
      </>
    );
  }

  return (
    <Section aria-labelledby="dos-pasos-titulo">
      <h2 id="dos-pasos-titulo">Verificación en dos pasos</h2>
      {security.error && <Alert tone="error">{security.error}</Alert>}
      {error && <Alert tone="error">{error}</Alert>}
      {notice && <Alert tone="success">{notice}</Alert>}
      {body}
    </Section>
  );
}
