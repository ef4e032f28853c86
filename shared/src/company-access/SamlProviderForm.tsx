import { type FormEvent, useState } from 'react';
import { errorMessage } from '../api/client';
import { useSubmit } from '../forms/useSubmit';
import type { CompanySamlProvider, CompanySamlProviderInput, CompanySamlServiceProvider } from '../types/entities';
import { Alert } from '../ui/Alert';
import { Button } from '../ui/Button';
import { TextField } from '../ui/TextField';
import { AccessForm, AllowPassword, DomainsChoice, typedDomains } from './AccessFormParts';
import { CopyButton } from './CopyButton';
import { Facts } from './Facts';
import { MetadataField } from './MetadataField';
import { TEXT_ACCESS } from './texts';

const T = TEXT_ACCESS;

/** The API's field names in a refusal, as the SAML form labels them. */
const SAML_LABELS = {
  metadata: T.metadata,
  urlMetadatos: T.metadataAddress,
  dominios: T.accessDomains,
  permitirContrasena: T.allowPassword,
};

/**
 * What the company's IT enters in its identity provider for the portal: its entity ID, its ACS and the address of its
 * metadata (which AD FS and Entra ID import at once), each with 'Copiar'. Known before anything is connected.
 */
export function SamlValues({ values }: { values: CompanySamlServiceProvider }) {
  const rows = [
    { label: T.spEntityId, value: values.entityId },
    { label: T.spAcsUrl, value: values.acsUrl },
    { label: T.spMetadataUrl, value: values.metadataUrl },
  ];
  return (
    <Facts aria-label={T.samlValues}>
      {rows.map((row) => (
        <CopyRow key={row.label} {...row} />
      ))}
      <dd className="wide">{T.samlValuesHint}</dd>
    </Facts>
  );
}

/** One value to hand over, labelled, with its 'Copiar'. */
export function CopyRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <code>{value}</code>
      </dd>
      <dd>
        <CopyButton text={value} label={T.copyOf(label)} />
      </dd>
    </>
  );
}

/**
 * Connects or changes the company's SAML provider: its metadata XML (pasted or loaded from the file it exported) or,
 * instead, the address the API reads it from (and reads again each day); one of them the first time, both left empty
 * later keeps the saved metadata and its address. Then the domains and the password, as the OpenID Connect form.
 */
export function SamlProviderForm({
  current,
  proved,
  platform,
  replaces,
  save,
  onSaved,
}: {
  current: CompanySamlProvider | null;
  proved: string[];
  platform: boolean;
  /** The other protocol's connection this one replaces on saving, named; null when there is none. */
  replaces: string | null;
  save(input: CompanySamlProviderInput): Promise<CompanySamlServiceProvider>;
  onSaved(saved: CompanySamlServiceProvider): void;
}) {
  const [metadata, setMetadata] = useState('');
  const [address, setAddress] = useState('');
  const [chosen, setChosen] = useState<string[]>(current?.dominios ?? []);
  const [others, setOthers] = useState('');
  const [allowPassword, setAllowPassword] = useState(current?.permitirContrasena ?? true);
  const { busy, message, submit } = useSubmit();
  const offered = [...new Set([...proved, ...(current?.dominios ?? [])])];

  const send = (event: FormEvent) => {
    event.preventDefault();
    const dominios = [...new Set([...chosen, ...(platform ? typedDomains(others) : [])])];
    const xml = metadata.trim();
    const url = address.trim();
    const input: CompanySamlProviderInput = {
      tipo: 'saml',
      ...(xml ? { metadata: xml } : {}),
      ...(url ? { urlMetadatos: url } : {}),
      dominios,
      permitirContrasena: allowPassword,
    };
    const problem =
      xml && url
        ? T.metadataOneSource
        : !current && !xml && !url
          ? T.metadataRequired
          : dominios.length === 0
            ? T.domainsRequired
            : null;
    void submit({
      problem,
      afterSuccess: 'ready',
      call: () => save(input),
      success: (saved) => onSaved(saved),
      failure: (caught) => errorMessage(caught, T.saveProviderFailed, SAML_LABELS),
    });
  };

  return (
    <AccessForm onSubmit={send} noValidate aria-labelledby="saml-form-title">
      <h3 id="saml-form-title">{T.providerForm}</h3>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      {replaces && <p className="note">{T.replacesOther(replaces)}</p>}
      <MetadataField
        label={T.metadata}
        hint={current ? T.metadataKept : T.metadataHint}
        value={metadata}
        onChange={setMetadata}
        disabled={busy}
      />
      <TextField
        label={T.metadataAddress}
        hint={T.metadataAddressHint}
        value={address}
        disabled={busy}
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => setAddress(event.target.value)}
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
