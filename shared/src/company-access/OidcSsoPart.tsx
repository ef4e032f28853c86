import type { CompanyProvider } from '../types/entities';
import { PasswordField, TextField } from '../ui/TextField';
import { AddressField } from './AccessFormParts';
import type { ProtocolFieldsProps, ProtocolPart } from './sso-part';
import { TEXT_ACCESS } from './texts';

const T = TEXT_ACCESS;

/** What the OpenID Connect part holds as typed: the secret starts empty (the saved one is never sent back). */
export interface OidcFieldValues {
  issuer: string;
  clientId: string;
  secret: string;
}

/**
 * The company's provider by OpenID Connect: its issuer, client ID and secret. The secret is asked for on the first
 * connection only (empty later keeps it). The body has no `tipo`: the API takes one without it as OpenID Connect.
 */
export const OIDC_PART: ProtocolPart<OidcFieldValues, CompanyProvider> = {
  labels: { issuer: T.issuer, clientId: T.clientIdLabel, clientSecret: T.clientSecretLabel },
  initial: (current) => ({ issuer: current?.issuer ?? '', clientId: current?.clientId ?? '', secret: '' }),
  body: (values, current) => {
    const issuer = values.issuer.trim();
    const clientId = values.clientId.trim();
    const problem = !issuer
      ? T.issuerRequired
      : !clientId
        ? T.clientIdRequired
        : !current && !values.secret
          ? T.clientSecretRequired
          : null;
    return { problem, fields: { issuer, clientId, ...(values.secret ? { clientSecret: values.secret } : {}) } };
  },
  Fields: OidcFields,
};

function OidcFields({ values, onChange, current, busy }: ProtocolFieldsProps<OidcFieldValues, CompanyProvider>) {
  return (
    <>
      <AddressField
        label={T.issuer}
        hint={T.issuerHint}
        value={values.issuer}
        busy={busy}
        onChange={(issuer) => onChange({ ...values, issuer })}
      />
      <TextField
        label={T.clientIdLabel}
        value={values.clientId}
        disabled={busy}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => onChange({ ...values, clientId: event.target.value })}
      />
      <PasswordField
        label={T.clientSecretLabel}
        hint={current ? T.clientSecretKept : undefined}
        value={values.secret}
        disabled={busy}
        autoComplete="new-password"
        onChange={(event) => onChange({ ...values, secret: event.target.value })}
      />
    </>
  );
}
