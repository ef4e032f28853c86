import { type FormEvent, useState } from 'react';
import { errorMessage } from '../api/client';
import { useSubmit } from '../forms/useSubmit';
import type { CompanyProvider, CompanyProviderInput } from '../types/entities';
import { Alert } from '../ui/Alert';
import { Button } from '../ui/Button';
import { PasswordField, TextField } from '../ui/TextField';
import { AccessForm, AllowPassword, DomainsChoice, typedDomains } from './AccessFormParts';
import { TEXT_ACCESS } from './texts';

const T = TEXT_ACCESS;

/** The API's field names in a refusal, as the form labels them. */
const LABELS = {
  issuer: T.issuer,
  clientId: T.clientIdLabel,
  clientSecret: T.clientSecretLabel,
  dominios: T.accessDomains,
  permitirContrasena: T.allowPassword,
};

/**
 * Connects or changes the provider. The secret is asked for on the first connection only (empty later keeps it); the
 * domains are the company's proved ones, and a platform administrator may type others (its call proves them). The
 * admin panel's 'Acceso de la empresa' and the company's setup page both show it, each with its own `save`.
 */
export function OidcProviderForm({
  current,
  replaces,
  proved,
  platform,
  save,
  onSaved,
}: {
  current: CompanyProvider | null;
  /** The other protocol's connection this one replaces on saving, named; null when there is none. */
  replaces: string | null;
  proved: string[];
  platform: boolean;
  save(input: CompanyProviderInput): Promise<{ redirectUri: string }>;
  onSaved(saved: { redirectUri: string }): void;
}) {
  const [issuer, setIssuer] = useState(current?.issuer ?? '');
  const [clientId, setClientId] = useState(current?.clientId ?? '');
  const [secret, setSecret] = useState('');
  const [chosen, setChosen] = useState<string[]>(current?.dominios ?? []);
  const [others, setOthers] = useState('');
  const [allowPassword, setAllowPassword] = useState(current?.permitirContrasena ?? true);
  const { busy, message, submit } = useSubmit();
  // The connection's own domains stay offered even when no longer among the proved ones (the API then says why).
  const offered = [...new Set([...proved, ...(current?.dominios ?? [])])];

  const send = (event: FormEvent) => {
    event.preventDefault();
    const dominios = [...new Set([...chosen, ...(platform ? typedDomains(others) : [])])];
    // `tipo` is left out: the API takes a body without it as OpenID Connect, as before SAML.
    const input: CompanyProviderInput = {
      issuer: issuer.trim(),
      clientId: clientId.trim(),
      ...(secret ? { clientSecret: secret } : {}),
      dominios,
      permitirContrasena: allowPassword,
    };
    void submit({
      problem: !input.issuer
        ? T.issuerRequired
        : !input.clientId
          ? T.clientIdRequired
          : !current && !secret
            ? T.clientSecretRequired
            : dominios.length === 0
              ? T.domainsRequired
              : null,
      afterSuccess: 'ready',
      call: () => save(input),
      success: (saved) => onSaved(saved),
      failure: (caught) => errorMessage(caught, T.saveProviderFailed, LABELS),
    });
  };

  return (
    <AccessForm onSubmit={send} noValidate aria-labelledby="provider-form-title">
      <h3 id="provider-form-title">{T.providerForm}</h3>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      {replaces && <p className="note">{T.replacesOther(replaces)}</p>}
      <TextField
        label={T.issuer}
        hint={T.issuerHint}
        value={issuer}
        disabled={busy}
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => setIssuer(event.target.value)}
      />
      <TextField
        label={T.clientIdLabel}
        value={clientId}
        disabled={busy}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => setClientId(event.target.value)}
      />
      <PasswordField
        label={T.clientSecretLabel}
        hint={current ? T.clientSecretKept : undefined}
        value={secret}
        disabled={busy}
        autoComplete="new-password"
        onChange={(event) => setSecret(event.target.value)}
      />
      <DomainsChoice
        offered={offered}
        chosen={chosen}
        onChosen={setChosen}
        platform={platform}
        others={others}
        onOthers={setOthers}
        busy={busy}
      />
      <AllowPassword value={allowPassword} onChange={setAllowPassword} busy={busy} />
      <Button type="submit" disabled={busy}>
        {busy ? T.saving : T.save}
      </Button>
    </AccessForm>
  );
}
