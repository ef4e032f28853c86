import { type FormEvent, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, errorMessage, TextField, useSubmit } from '@portal/shared';
import type { CompanySamlConnection, CompanySamlInput, SamlServiceProvider } from '../../api/company-types';
import { COMPANY_FALLBACK } from '../../api/texts';
import { CopyButton } from '../../components/CopyButton';
import { MetadataField } from '../../components/MetadataField';
import { StatusPill } from '../../components/StatusPill';
import { certificateStatus } from '../../rules/companies';
import { formatExpiryDate } from '../../rules/format';
import { AccessForm, AllowPassword, DomainsChoice, typedDomains } from './AccessFormParts';
import { Facts, Notices } from './SectionParts';
import { TEXT_COMPANY } from './texts';

const T = TEXT_COMPANY;
const when = (iso: string) => new Date(iso).toLocaleString('es-ES');

/** The API's field names in a refusal, as the SAML form labels them. */
const SAML_LABELS = {
  metadata: T.metadata,
  urlMetadatos: T.metadataAddress,
  dominios: T.accessDomains,
  permitirContrasena: T.allowPassword,
};

const Certificates = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 8px;
  li { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 10px; }
  code { flex: 1 1 100%; }
`;

/**
 * What the company's IT enters in its identity provider for the portal: its entity ID, its ACS and the address of its
 * metadata (which AD FS and Entra ID import at once), each with 'Copiar'. Known before anything is connected.
 */
export function SamlValues({ values }: { values: SamlServiceProvider }) {
  const rows = [
    { label: T.spEntityId, value: values.entityId },
    { label: T.spAcsUrl, value: values.acsUrl },
    { label: T.spMetadataUrl, value: values.metadataUrl },
  ];
  return (
    <Facts aria-label={T.samlValues}>
      {rows.map((row) => (
        <Row key={row.label} {...row} />
      ))}
      <dd className="wide">{T.samlValuesHint}</dd>
    </Facts>
  );
}

function Row({ label, value }: { label: string; value: string }) {
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
 * The SAML connection as it stands: what its metadata says of the provider (entity ID, sign-in address, each signing
 * certificate and its end, warned about within 30 days and once past), the domains, the password, the last sign-in
 * and the last failure.
 */
export function SamlFacts({ connection, now }: { connection: CompanySamlConnection; now: number }) {
  const certificates = connection.idp.certificados.map((certificate) => ({
    ...certificate,
    status: certificateStatus(certificate.venceEn, now),
  }));
  const expired = certificates.find((certificate) => certificate.status.tone === 'expired');
  const expiring = certificates.find((certificate) => certificate.status.tone === 'warning');
  return (
    <>
      <Notices>
        {connection.ultimoError && (
          <Alert>
            {T.lastError(connection.ultimoErrorEn ? when(connection.ultimoErrorEn) : T.never, connection.ultimoError)}
          </Alert>
        )}
        {/* Said as a notice, not an error: it is read on arrival, and an error would take the keyboard's place. */}
        {expired && <Alert tone="info">{T.certificateExpired(formatExpiryDate(expired.venceEn))}</Alert>}
        {!expired && expiring && <Alert tone="info">{T.certificateExpiring(expiring.status.text.toLowerCase())}</Alert>}
      </Notices>
      <Facts aria-label={T.providerForm}>
        <dt>{T.protocol}</dt>
        <dd className="wide">{T.protocolSaml}</dd>
        <dt>{T.idpEntityId}</dt>
        <dd className="wide">{connection.idp.entityId}</dd>
        <dt>{T.idpSsoUrl}</dt>
        <dd className="wide">{connection.idp.ssoUrl}</dd>
        {connection.idp.urlMetadatos && (
          <>
            <dt>{T.metadataAddress}</dt>
            <dd className="wide">
              <code>{connection.idp.urlMetadatos}</code>
            </dd>
          </>
        )}
        <dt id="saml-certificates">{T.certificates}</dt>
        <dd className="wide">
          {certificates.length === 0 ? (
            T.noCertificates
          ) : (
            <Certificates aria-labelledby="saml-certificates">
              {certificates.map((certificate, index) => (
                <li key={certificate.huella} aria-label={T.certificate(index + 1)}>
                  <span>{T.fingerprint}</span>
                  <StatusPill
                    $tone={
                      certificate.status.tone === 'expired'
                        ? 'danger'
                        : certificate.status.tone === 'warning'
                          ? 'warning'
                          : 'ok'
                    }
                  >
                    {certificate.status.text}
                  </StatusPill>
                  <code>{certificate.huella}</code>
                </li>
              ))}
            </Certificates>
          )}
        </dd>
        <dt>{T.accessDomains}</dt>
        <dd className="wide">{connection.dominios.join(', ')}</dd>
        <dt>{T.passwordAllowed}</dt>
        <dd className="wide">{connection.permitirContrasena ? T.passwordAllowedYes : T.passwordAllowedNo}</dd>
        <dt>{T.lastAccess}</dt>
        <dd className="wide">{connection.ultimoAcceso ? when(connection.ultimoAcceso) : T.never}</dd>
      </Facts>
    </>
  );
}

/**
 * Connects or changes the company's SAML provider: its metadata XML (pasted or loaded from the file it exported) or,
 * instead, the address the API reads it from (and reads again each day); one of them the first time, both left empty
 * later keeps the saved metadata and its address. Then the domains and the password, as the OpenID Connect form.
 */
export function SamlForm({
  current,
  proved,
  platform,
  replaces,
  save,
  onSaved,
}: {
  current: CompanySamlConnection | null;
  proved: string[];
  platform: boolean;
  /** The other protocol's connection this one replaces on saving, named; null when there is none. */
  replaces: string | null;
  save(input: CompanySamlInput): Promise<SamlServiceProvider>;
  onSaved(saved: SamlServiceProvider): void;
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
    const input: CompanySamlInput = {
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
      failure: (caught) => errorMessage(caught, COMPANY_FALLBACK.saveProvider, SAML_LABELS),
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
