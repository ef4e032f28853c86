import { Alert, Button } from '@portal/shared';
import { Form, Row } from '../../components/AuthLayout';
import { PasswordInput } from '../../components/PasswordInput';
import type { PasswordStepState } from './useRegistration';

/** Registration step 2, 'Tu contraseña': the password twice, then the account is created. */
export function PasswordStep({
  values,
  errors,
  serverError,
  busy,
  formRef,
  change,
  createAccount,
  back,
}: PasswordStepState) {
  return (
    <Form ref={formRef} onSubmit={createAccount} noValidate aria-label="Tu contraseña">
      {serverError && <Alert tone="error">{serverError}</Alert>}
      <PasswordInput
        label="Contraseña"
        value={values.password}
        error={errors.password}
        hint="Usa mayúsculas, números y símbolos para una contraseña más segura."
        disabled={busy}
        onChange={(password) => change({ password })}
      />
      <PasswordInput
        label="Confirmar contraseña"
        value={values.confirmation}
        error={errors.confirmation}
        disabled={busy}
        onChange={(confirmation) => change({ confirmation })}
      />
      <Row>
        <Button $variant="secondary" disabled={busy} onClick={back}>
          Anterior
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? 'Creando cuenta...' : 'Crear cuenta'}
        </Button>
      </Row>
    </Form>
  );
}
