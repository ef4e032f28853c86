import { Alert, Button } from '@portal/shared';
import { Form, Row, TextLink } from '../../components/AuthLayout';
import { NewPasswordFields } from '../../components/AccountFields';
import type { PasswordStepState } from './useRegistration';

/**
 * Registration step 2, 'Tu contraseña': the password twice, then the account is created. An email with a registration
 * made elsewhere (another device or browser) says so, and where its code is typed.
 */
export function PasswordStep({
  values,
  errors,
  serverError,
  busy,
  formRef,
  change,
  createAccount,
  back,
  pendingElsewhere,
}: PasswordStepState) {
  return (
    <Form ref={formRef} onSubmit={createAccount} noValidate aria-label="Tu contraseña">
      {pendingElsewhere && (
        <Alert tone="info">
          Este email ya tiene un registro sin verificar, quizás hecho en otro dispositivo. Si tienes el código que te
          enviamos,{' '}
          <TextLink to={pendingElsewhere.path} state={pendingElsewhere.state}>
            escríbelo aquí
          </TextLink>{' '}
          junto con tu contraseña. Si no, crea tu contraseña y te enviaremos el código.
        </Alert>
      )}
      {serverError && <Alert tone="error">{serverError}</Alert>}
      <NewPasswordFields values={values} errors={errors} disabled={busy} onChange={change} />
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
