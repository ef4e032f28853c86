import { type FormEvent, useCallback, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, errorMessage, PasswordField, TextField, theme, useSubmit } from '@portal/shared';
import { getProvider, getProviderRedirect, listDomains, removeProvider, saveProvider } from '../../api/companies';
import type { CompanyProvider, CompanyProviderInput } from '../../api/company-types';
import { COMPANY_FALLBACK } from '../../api/texts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LoadState } from '../../components/LoadState';
import { Panel } from '../../components/Page';
import { useLoad } from '../../hooks/useLoad';
import { mayEditAccess } from '../../rules/companies';
import { CopyButton } from './CopyButton';
import { Facts, SectionHead, type SectionProps } from './SectionParts';
import { TEXT_COMPANY } from './texts';

const T = TEXT_COMPANY;
const when = (iso: string) => new Date(iso).toLocaleString('es-ES');

const Form = styled.form`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 16px;
  max-width: 640px;
  margin-top: 8px;
  h3 { margin: 0; }
  /* A fieldset is as wide as its content by default: a long domain would widen the page on a phone. */
  fieldset { min-width: 0; margin: 0; padding: 8px 14px 12px; border: 1px solid ${theme.color.border}; border-radius: ${theme.radius}; }
  legend { padding: 0 6px; font-weight: 600; }
  label.check { display: flex; align-items: center; gap: 10px; min-height: 44px; overflow-wrap: anywhere; }
  label.check input { width: 20px; height: 20px; margin: 0; flex: none; }
  .note { margin: 0; color: ${theme.color.muted}; font-size: 0.9rem; }
  button[type='submit'] { justify-self: start; }
`;

/** The API's field names in a refusal, as the form labels them. */
const LABELS = {
  issuer: T.issuer,
  clientId: T.clientIdLabel,
  clientSecret: T.clientSecretLabel,
  dominios: T.accessDomains,
  permitirContrasena: T.allowPassword,
};

/** 'a.pe, b.pe' typed by a platform administrator: each domain once, lowercase. */
function typedDomains(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * 'Acceso de la empresa': the company's own OpenID Connect provider (docs/decisions/0080-company-sign-in.md). Its
 * owners and the platform connect, change or disconnect it; a company administrator reads it.
 */
export function AccessSection({ companyId, viewer, announce }: SectionProps) {
  const editor = mayEditAccess(viewer);
  // The connection, with the address to register with the provider (known before anything is connected).
  const provider = useLoad(
    () =>
      Promise.all([getProvider(companyId), getProviderRedirect(companyId)]).then(([found, { redirectUri }]) => ({
        found,
        redirectUri,
      })),
    COMPANY_FALLBACK.provider,
    [companyId],
  );
  // The domains to choose from: the company's proved ones (an owner may name no other).
  const domains = useLoad(() => (editor ? listDomains(companyId) : Promise.resolve([])), COMPANY_FALLBACK.domains, [
    companyId,
    editor,
  ]);
  const [disconnecting, setDisconnecting] = useState(false);
  const closeDisconnect = useCallback(() => setDisconnecting(false), []);
  const current = provider.data?.found ?? null;
  const shownRedirect = provider.data?.redirectUri ?? null;

  return (
    <Panel aria-labelledby="access-title">
      <SectionHead>
        <h2 id="access-title">{T.access}</h2>
        {editor && current && (
          <Button $variant="danger" onClick={() => setDisconnecting(true)}>
            {T.disconnect}
          </Button>
        )}
      </SectionHead>
      <p>{T.accessIntro}</p>
      {shownRedirect && (
        <Facts aria-label={T.redirectUri}>
          <dt>{T.redirectUri}</dt>
          <dd>
            <code>{shownRedirect}</code>
          </dd>
          <dd>
            <CopyButton text={shownRedirect} label={T.copyOf(T.redirectUri.toLowerCase())} />
          </dd>
          <dd className="wide">{T.redirectUriHint}</dd>
        </Facts>
      )}
      <LoadState
        state={provider}
        loading={T.loadingProvider}
        empty={T.noProvider}
        isEmpty={(loaded) => loaded.found === null}
      >
        {(loaded) => loaded.found && <ProviderFacts provider={loaded.found} />}
      </LoadState>
      {!editor && provider.data && <p>{T.readOnly}</p>}
      {editor && provider.data && (domains.data || domains.error) && (
        <>
          {domains.error && <Alert>{domains.error}</Alert>}
          <ProviderForm
            // A new answer (saved, reloaded) starts the form again from it, the secret empty.
            key={current?.actualizado ?? 'nuevo'}
            current={current}
            proved={(domains.data ?? []).filter((domain) => domain.verificado).map((domain) => domain.dominio)}
            platform={viewer.platform}
            save={(input) => saveProvider(companyId, input, viewer.platform)}
            onSaved={() => {
              announce(T.providerSaved);
              provider.reload();
            }}
          />
        </>
      )}
      {disconnecting && (
        <ConfirmDialog
          title={T.disconnectTitle}
          text={T.disconnectText}
          confirmLabel={T.disconnect}
          fallback={COMPANY_FALLBACK.removeProvider}
          onClose={closeDisconnect}
          onConfirm={async () => {
            await removeProvider(companyId, viewer.platform);
            setDisconnecting(false);
            announce(T.disconnected);
            provider.setData((loaded) => loaded && { ...loaded, found: null });
          }}
        />
      )}
    </Panel>
  );
}

/** The connection as it stands: provider, client, domains, password, last sign-in and last failure. */
function ProviderFacts({ provider }: { provider: CompanyProvider }) {
  return (
    <>
      {provider.ultimoError && (
        <Alert>
          {T.lastError(provider.ultimoErrorEn ? when(provider.ultimoErrorEn) : T.never, provider.ultimoError)}
        </Alert>
      )}
      <Facts aria-label={T.providerForm}>
        <dt>{T.issuer}</dt>
        <dd className="wide">{provider.issuer}</dd>
        <dt>{T.clientIdLabel}</dt>
        <dd className="wide">{provider.clientId}</dd>
        <dt>{T.accessDomains}</dt>
        <dd className="wide">{provider.dominios.join(', ')}</dd>
        <dt>{T.passwordAllowed}</dt>
        <dd className="wide">{provider.permitirContrasena ? T.passwordAllowedYes : T.passwordAllowedNo}</dd>
        <dt>{T.lastAccess}</dt>
        <dd className="wide">{provider.ultimoAcceso ? when(provider.ultimoAcceso) : T.never}</dd>
      </Facts>
    </>
  );
}

/**
 * Connects or changes the provider. The secret is asked for on the first connection only (empty later keeps it); the
 * domains are the company's proved ones, and a platform administrator may type others (its call proves them).
 */
function ProviderForm({
  current,
  proved,
  platform,
  save,
  onSaved,
}: {
  current: CompanyProvider | null;
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
      failure: (caught) => errorMessage(caught, COMPANY_FALLBACK.saveProvider, LABELS),
    });
  };

  return (
    <Form onSubmit={send} noValidate aria-labelledby="provider-form-title">
      <h3 id="provider-form-title">{T.providerForm}</h3>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
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
      <fieldset>
        <legend>{T.accessDomains}</legend>
        <p className="note">{T.accessDomainsHint}</p>
        {offered.length === 0 && !platform && <p className="note">{T.noProvedDomains}</p>}
        {offered.map((domain) => (
          <label className="check" key={domain}>
            <input
              type="checkbox"
              checked={chosen.includes(domain)}
              disabled={busy}
              onChange={(event) =>
                setChosen((list) =>
                  event.target.checked ? [...list, domain] : list.filter((other) => other !== domain),
                )
              }
            />
            {domain}
          </label>
        ))}
        {platform && (
          <TextField
            label={T.otherDomains}
            hint={T.otherDomainsHint}
            value={others}
            disabled={busy}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setOthers(event.target.value)}
          />
        )}
      </fieldset>
      <label className="check">
        <input
          type="checkbox"
          checked={allowPassword}
          disabled={busy}
          onChange={(event) => setAllowPassword(event.target.checked)}
        />
        {T.allowPassword}
      </label>
      <Button type="submit" disabled={busy}>
        {busy ? T.saving : T.save}
      </Button>
    </Form>
  );
}
