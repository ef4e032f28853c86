import { Alert, Button, FALLBACK } from '@portal/shared';
import { Form } from '../../components/AuthLayout';
import { ProfileFields } from '../../components/AccountFields';
import { EmailField } from '../../components/EmailField';
import type { DetailsStepState } from './useRegistration';

/** Registration step 1, 'Tus datos': email, name, last name and phone. */
export function DetailsStep({ values, errors, rulesFailed, busy, formRef, change, next }: DetailsStepState) {
  return (
    <Form ref={formRef} onSubmit={next} noValidate aria-label="Tus datos" aria-busy={busy}>
      <EmailField disabled={busy} value={values.email} error={errors.email} onChange={(email) => change({ email })} />
      <ProfileFields values={values} errors={errors} disabled={busy} onChange={change} />
      {rulesFailed && <Alert tone="error">{FALLBACK.unexpected}</Alert>}
      <Button type="submit" $block disabled={busy}>
        {busy ? 'Verificando...' : 'Siguiente'}
      </Button>
    </Form>
  );
}
