import { type FormEvent, useEffect, useState } from 'react';
import styled from 'styled-components';
import {
  Alert,
  Button,
  type CompanyDomain,
  type ConnectionTestResult,
  Choices,
  CopyButton,
  CopyRow,
  claimSetupDomain,
  createSetupScimToken,
  errorMessage,
  Facts,
  readSetupConnectionTest,
  type ScimTokenCreated,
  ProtocolChoice,
  SsoConnectionForm,
  type SsoProtocol,
  SamlValues,
  SETUP_PAGE_FALLBACK,
  type SetupPage,
  saveSetupProvider,
  Spinner,
  startSetupConnectionTest,
  TEXT_ACCESS,
  TextField,
  theme,
  useSubmit,
  verifySetupDomain,
} from '@portal/shared';
import { AuthLayout } from '../../components/AuthLayout';
import { PRODUCTS, type Product, TEXT_SETUP } from './texts';
import { useCompanySetup } from './useCompanySetup';

const T = TEXT_SETUP;
const A = TEXT_ACCESS;
const day = (iso: string) =>
  new Date(iso).toLocaleString('es-PE', { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });

const Steps = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 20px;
`;

const Step = styled.li`
  min-width: 0;
  padding: 20px;
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius};
  h2 { margin: 0 0 8px; font-size: 1.25rem; }
  h3 { margin: 16px 0 8px; font-size: 1.05rem; }
  p { margin: 0 0 12px; }
  @media (max-width: ${theme.breakpoint.mobile}) {
    padding: 14px 12px;
  }
`;

const Muted = styled.p`
  color: ${theme.color.muted};
`;

const Inline = styled.form`
  display: grid;
  grid-template-columns: minmax(0, 1fr) auto;
  align-items: end;
  gap: 12px;
  margin-bottom: 12px;
  @media (max-width: ${theme.breakpoint.mobile}) {
    grid-template-columns: minmax(0, 1fr);
    button { justify-self: start; }
  }
`;

const Domains = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 12px;
  > li { min-width: 0; padding: 12px; border-radius: ${theme.radius}; background: ${theme.color.background}; }
  strong { overflow-wrap: anywhere; }
`;

const Result = styled.div`
  display: grid;
  gap: 8px;
  margin: 0 0 12px;
  ul { margin: 0; padding-left: 20px; }
`;

/**
 * /configurar-empresa#cfg_…: the page a company's owner hands to its IT (docs/decisions/0105-company-setup-link.md),
 * without an account. It names the company and walks through its three steps: the domain, the sign-in and the
 * directory. An expired, revoked or unknown link shows why, who to ask, and no step.
 */
export default function CompanySetupPage() {
  const { state, retry, reload, testResult } = useCompanySetup();

  switch (state.step) {
    case 'loading':
      return (
        <AuthLayout title={T.tabTitle}>
          <Spinner label={T.loading} />
        </AuthLayout>
      );
    case 'closed':
      return (
        <AuthLayout
          title={
            state.reason === 'expired' ? T.expiredTitle : state.reason === 'revoked' ? T.revokedTitle : T.invalidTitle
          }
          focusTitle
        >
          <Alert>{state.message ?? T.noSecret}</Alert>
        </AuthLayout>
      );
    case 'failed':
      return (
        <AuthLayout title={T.tabTitle}>
          <Alert>{state.message}</Alert>
          <Button onClick={retry}>{T.retry}</Button>
        </AuthLayout>
      );
    case 'ready':
      return (
        <AuthLayout
          wide
          title={T.title(state.page.empresa.nombre)}
          subtitle={T.subtitle(day(state.page.enlace.venceEn))}
        >
          <Steps aria-label={T.stepsLabel}>
            <DomainStep secret={state.secret} domains={state.page.dominios} onChanged={reload} />
            <SignInStep secret={state.secret} page={state.page} onChanged={reload} testResult={testResult} />
            <DirectoryStep secret={state.secret} urlBase={state.page.directorio.urlBase} />
          </Steps>
        </AuthLayout>
      );
  }
}

/** 1. Dominio: claim a domain, the TXT record to publish (each part with 'Copiar'), 'Comprobar'. */
function DomainStep({ secret, domains, onChanged }: { secret: string; domains: CompanyDomain[]; onChanged(): void }) {
  const [domain, setDomain] = useState('');
  const { busy, message, submit } = useSubmit();
  const add = (event: FormEvent) => {
    event.preventDefault();
    const typed = domain.trim().toLowerCase();
    void submit({
      problem: typed ? null : T.domainRequired,
      afterSuccess: 'ready',
      call: () => claimSetupDomain(secret, typed),
      success: (claimed) => {
        setDomain('');
        onChanged();
        return T.domainAdded(claimed.dominio);
      },
      failure: (caught) => errorMessage(caught, SETUP_PAGE_FALLBACK.claim, { dominio: T.domainLabel }),
    });
  };
  return (
    <Step aria-labelledby="setup-domain">
      <h2 id="setup-domain">{T.step(1, T.domainStep)}</h2>
      <p>{T.domainIntro}</p>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      <Inline onSubmit={add} noValidate>
        <TextField
          label={T.domainLabel}
          hint={T.domainHint}
          value={domain}
          disabled={busy}
          autoComplete="off"
          spellCheck={false}
          inputMode="url"
          onChange={(event) => setDomain(event.target.value)}
        />
        <Button type="submit" disabled={busy}>
          {busy ? T.adding : T.addDomain}
        </Button>
      </Inline>
      {domains.length === 0 ? (
        <Muted>{T.noDomains}</Muted>
      ) : (
        <Domains>
          {domains.map((item) => (
            <DomainItem key={item.dominio} secret={secret} domain={item} onChanged={onChanged} />
          ))}
        </Domains>
      )}
    </Step>
  );
}

function DomainItem({ secret, domain, onChanged }: { secret: string; domain: CompanyDomain; onChanged(): void }) {
  const { busy, message, submit } = useSubmit();
  const check = () =>
    void submit({
      afterSuccess: 'ready',
      call: () => verifySetupDomain(secret, domain.dominio),
      success: (proved) => {
        onChanged();
        return T.domainVerified(proved.dominio);
      },
      failure: (caught) => errorMessage(caught, SETUP_PAGE_FALLBACK.verify),
    });
  return (
    <li aria-label={domain.dominio}>
      <p>
        <strong>{domain.dominio}</strong> · {domain.verificado ? T.verified : T.pending}
      </p>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      {!domain.verificado && (
        <>
          <Facts aria-label={T.txtName}>
            <CopyRow label={T.txtName} value={domain.registroTxt.nombre} />
            <CopyRow label={T.txtValue} value={domain.registroTxt.valor} />
          </Facts>
          <Button $variant="secondary" disabled={busy} onClick={check}>
            {busy ? T.checking : T.check}
          </Button>
        </>
      )}
    </li>
  );
}

/**
 * 2. Inicio de sesión: the protocol and the company's product, what to paste into it (each with 'Copiar'), and the
 * admin panel's own form to save the provider, sent through the link.
 */
function SignInStep({
  secret,
  page,
  onChanged,
  testResult,
}: {
  secret: string;
  page: SetupPage;
  onChanged(): void;
  testResult: string | null;
}) {
  const current = page.inicioDeSesion.proveedor;
  const [kind, setKind] = useState<SsoProtocol>(current?.tipo === 'saml' ? 'saml' : 'oidc');
  const [product, setProduct] = useState<Product>('entra');
  const [saved, setSaved] = useState(false);
  const proved = page.dominios.filter((domain) => domain.verificado).map((domain) => domain.dominio);
  const addresses = page.inicioDeSesion.direcciones;
  const guide = PRODUCTS.find((item) => item.id === product) ?? PRODUCTS[0];
  const onSaved = () => {
    setSaved(true);
    onChanged();
  };
  return (
    <Step aria-labelledby="setup-sign-in">
      <h2 id="setup-sign-in">{T.step(2, T.signInStep)}</h2>
      <p>{T.signInIntro}</p>
      {current && <Alert tone="info">{T.connected(current.tipo === 'saml' ? A.protocolSaml : A.protocolOidc)}</Alert>}
      {saved && <Alert tone="success">{T.providerSaved}</Alert>}
      <ProtocolChoice value={kind} onChange={setKind} />
      <Choices>
        <legend>{T.product}</legend>
        <div>
          {PRODUCTS.map((option) => (
            <label key={option.id}>
              <input
                type="radio"
                name="setup-product"
                value={option.id}
                checked={product === option.id}
                onChange={() => setProduct(option.id)}
              />
              {option.name}
            </label>
          ))}
        </div>
      </Choices>
      {guide && <p>{kind === 'oidc' ? (guide.oidc ?? T.samlOnly(guide.name)) : guide.saml}</p>}
      {kind === 'oidc' ? (
        <Facts aria-label={A.redirectUri}>
          <CopyRow label={A.redirectUri} value={addresses.redirectUri} />
          <dd className="wide">{A.redirectUriHint}</dd>
        </Facts>
      ) : (
        <SamlValues values={addresses.saml} />
      )}
      {proved.length === 0 && <Muted>{T.needsDomain}</Muted>}
      <SsoConnectionForm
        key={current?.actualizado ?? 'nuevo'}
        kind={kind}
        current={current}
        proved={proved}
        platform={false}
        save={(input) => saveSetupProvider(secret, input)}
        onSaved={onSaved}
      />
      {current && <ConnectionTest secret={secret} sealed={testResult} />}
    </Step>
  );
}

/**
 * 'Probar conexión' (docs/decisions/0111-setup-link-connection-test.md): this tab goes to the company's provider for a
 * real sign-in in test mode and comes back with what it found, read with the link: the email, the names and what
 * would stop that person's sign-in. No session, account or link is made.
 */
function ConnectionTest({ secret, sealed }: { secret: string; sealed: string | null }) {
  const [result, setResult] = useState<ConnectionTestResult | null>(null);
  const { busy, message, submit } = useSubmit();
  useEffect(() => {
    if (!sealed) return;
    void submit({
      afterSuccess: 'ready',
      call: () => readSetupConnectionTest(secret, sealed),
      success: (found) => setResult(found),
      failure: (caught) => errorMessage(caught, SETUP_PAGE_FALLBACK.testResult),
    });
  }, [secret, sealed, submit]);
  const start = () =>
    void submit({
      call: () => startSetupConnectionTest(secret),
      success: ({ url }) => window.location.assign(url),
      failure: (caught) => errorMessage(caught, SETUP_PAGE_FALLBACK.test),
    });
  return (
    <section aria-labelledby="setup-test">
      <h3 id="setup-test">{T.testTitle}</h3>
      <p>{T.testIntro}</p>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      {result && (
        <Result aria-label={T.testResult}>
          {/* Back from the provider the focus is nowhere: the result takes it, and the view, whatever it says. */}
          <Alert tone={result.ok ? 'success' : 'error'} holdsLostFocus>
            {result.ok ? T.testOk : T.testProblems}
          </Alert>
          <Facts aria-label={T.testResult}>
            <dt>{T.testEmail}</dt>
            <dd className="wide">{result.email ?? T.testNone}</dd>
            <dt>{T.testNames}</dt>
            <dd className="wide">{[result.nombre, result.apellido].filter(Boolean).join(' ') || T.testNone}</dd>
          </Facts>
          {result.problemas.length > 0 && (
            <ul>
              {result.problemas.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
        </Result>
      )}
      <Button $variant="secondary" disabled={busy} onClick={start}>
        {busy ? T.testing : T.test}
      </Button>
    </section>
  );
}

/** 3. Directorio: the SCIM base URL and a token, shown once with 'Copiar' and the warning that it will not be again. */
function DirectoryStep({ secret, urlBase }: { secret: string; urlBase: string }) {
  const [created, setCreated] = useState<ScimTokenCreated | null>(null);
  const { busy, message, submit } = useSubmit();
  const create = () =>
    void submit({
      afterSuccess: 'ready',
      call: () => createSetupScimToken(secret),
      success: (token) => setCreated(token),
      failure: (caught) => errorMessage(caught, SETUP_PAGE_FALLBACK.token),
    });
  return (
    <Step aria-labelledby="setup-directory">
      <h2 id="setup-directory">{T.step(3, T.directoryStep)}</h2>
      <p>{T.directoryIntro}</p>
      <Facts aria-label={T.scimUrl}>
        <CopyRow label={T.scimUrl} value={urlBase} />
      </Facts>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      {created && (
        <>
          <Alert tone="info">{T.tokenOnce}</Alert>
          <Facts aria-label={T.token}>
            <dt>{T.token}</dt>
            <dd>
              <code>{created.token}</code>
            </dd>
            <dd>
              <CopyButton text={created.token} label={A.copyOf(T.token.toLowerCase())} />
            </dd>
          </Facts>
        </>
      )}
      <Button $variant={created ? 'secondary' : 'primary'} disabled={busy} onClick={create}>
        {busy ? T.creatingToken : T.createToken}
      </Button>
    </Step>
  );
}
