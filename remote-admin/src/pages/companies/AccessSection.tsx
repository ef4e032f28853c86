import { useCallback, useState } from 'react';
import {
  Alert,
  Button,
  CopyButton,
  Facts,
  kindOf,
  ProtocolChoice,
  SsoConnectionForm,
  type SsoProtocol,
  SamlValues,
} from '@portal/shared';
import { getProvider, getProviderRedirect, listDomains, removeProvider, saveProvider } from '../../api/companies';
import type { CompanyConnection, CompanyOidcConnection, CompanySamlConnection } from '../../api/company-types';
import { COMPANY_FALLBACK } from '../../api/texts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LoadState } from '../../components/LoadState';
import { Panel } from '../../components/Page';
import { useLoad } from '../../hooks/useLoad';
import { mayEditAccess } from '../../rules/companies';
import { SamlFacts } from './SamlAccess';
import { Notices, SectionHead, type SectionProps } from './SectionParts';
import { TEXT_COMPANY } from './texts';

const T = TEXT_COMPANY;
const when = (iso: string) => new Date(iso).toLocaleString('es-ES');

/** An answer from before SAML has no `tipo`: it is OpenID Connect. */
const isSaml = (connection: CompanyConnection): connection is CompanySamlConnection => connection.tipo === 'saml';

/**
 * 'Acceso de la empresa': the company's own identity provider, by OpenID Connect
 * (docs/decisions/0080-company-sign-in.md) or SAML 2.0 (docs/decisions/0101-saml-admin-panel.md). Its owners and the
 * platform choose the protocol, connect, change or disconnect it; a company administrator reads it. What the
 * company's IT enters in its provider is shown for the protocol chosen, before anything is connected.
 */
export function AccessSection({ companyId, viewer, announce }: SectionProps) {
  const editor = mayEditAccess(viewer);
  // The connection, with what to register with the provider (known before anything is connected).
  const provider = useLoad(
    () =>
      Promise.all([getProvider(companyId), getProviderRedirect(companyId)]).then(([found, redirect]) => ({
        found,
        redirect,
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
  const currentKind = current ? kindOf(current) : null;
  // The protocol the editor picked; until then, the connection's own, or OpenID Connect.
  const [picked, setPicked] = useState<SsoProtocol | null>(null);
  const kind = picked ?? currentKind ?? 'oidc';
  const shownRedirect = provider.data?.redirect.redirectUri ?? null;
  const shownSaml = current && isSaml(current) ? current : (provider.data?.redirect.saml ?? null);
  const proved = (domains.data ?? []).filter((domain) => domain.verificado).map((domain) => domain.dominio);
  const onSaved = () => {
    announce(T.providerSaved);
    provider.reload();
  };

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
      {editor && provider.data && <ProtocolChoice value={kind} onChange={setPicked} />}
      {kind === 'oidc' && shownRedirect && (
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
      {kind === 'saml' && shownSaml && <SamlValues values={shownSaml} />}
      <LoadState
        state={provider}
        loading={T.loadingProvider}
        empty={T.noProvider}
        isEmpty={(loaded) => loaded.found === null}
      >
        {(loaded) =>
          loaded.found &&
          (isSaml(loaded.found) ? (
            <SamlFacts connection={loaded.found} now={Date.now()} />
          ) : (
            <ProviderFacts provider={loaded.found} />
          ))
        }
      </LoadState>
      {!editor && provider.data && <p>{T.readOnly}</p>}
      {editor && provider.data && (domains.data || domains.error) && (
        <>
          {domains.error && <Alert>{domains.error}</Alert>}
          <SsoConnectionForm
            // A new answer (saved, reloaded) starts the form again from it, the secret empty.
            key={current?.actualizado ?? 'nuevo'}
            kind={kind}
            current={current}
            proved={proved}
            platform={viewer.platform}
            save={(input) => saveProvider(companyId, input, viewer.platform)}
            onSaved={onSaved}
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
function ProviderFacts({ provider }: { provider: CompanyOidcConnection }) {
  return (
    <>
      {provider.ultimoError && (
        <Notices>
          <Alert>
            {T.lastError(provider.ultimoErrorEn ? when(provider.ultimoErrorEn) : T.never, provider.ultimoError)}
          </Alert>
        </Notices>
      )}
      <Facts aria-label={T.providerForm}>
        <dt>{T.protocol}</dt>
        <dd className="wide">{T.protocolOidc}</dd>
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
