import { Alert, Button, FALLBACK, TextField } from '@portal/shared';
import { Form } from '../../components/AuthLayout';
import { EmailField } from '../../components/EmailField';
import { PhoneField } from '../../components/PhoneField';
import { loadPhoneRules } from '../../rules/phone-rules';
import type { DetailsStepState } from './useRegistration';

/** Registration step 1, 'Tus datos': email, name, last name and phone. */
export function DetailsStep({ values, errors, rulesFailed, busy, formRef, change, next }: DetailsStepState) {
  return (
    <Form ref={formRef} onSubmit={next} noValidate aria-label="Tus datos" aria-busy={busy}>
      <EmailField disabled={busy} value={values.email} error={errors.email} onChange={(email) => change({ email })} />
      <TextField
        label="Nombre"
        disabled={busy}
        autoComplete="given-name"
        value={values.name}
        error={errors.name}
        onChange={(e) => change({ name: e.target.value })}
      />
      <TextField
        label="Apellido"
        disabled={busy}
        autoComplete="family-name"
        value={values.lastName}
        error={errors.lastName}
        onChange={(e) => change({ lastName: e.target.value })}
      />
      <PhoneField
        value={values.phone}
        disabled={busy}
        error={errors.phone}
        onChange={(phone) => change({ phone })}
        onFocus={() => void loadPhoneRules().catch(() => undefined)}
      />
      {rulesFailed && <Alert tone="error">{FALLBACK.unexpected}</Alert>}
      <Button type="submit" $block disabled={busy}>
        {busy ? 'Verificando...' : 'Siguiente'}
      </Button>
    </Form>
  );
}
