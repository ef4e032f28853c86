import { Fragment, useCallback, useEffect, useState } from 'react';
import styled from 'styled-components';
import {
  Alert,
  APPS_PAGE_SIZE,
  type App,
  Button,
  errorMessage,
  listApps,
  LoadFailed,
  type OidcClient,
  type SamlApp,
  Spinner,
  theme,
  useTimedMessage,
} from '@portal/shared';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Panel, spreadRow } from '../../components/Page';
import { useToggleSet } from '../../hooks/useToggleSet';
import { ADMIN_ALERT_MS } from '../../texts';
import {
  type Confirmation,
  type ConnectedAppRow,
  type ConnectionForm,
  type ConnectionProtocol,
  emptyConnectionForm,
  type Outcome,
} from './connected-app';
import { ConnectionDialog } from './ConnectionDialog';
import { OIDC_CONNECTION } from './oidc-connection';
import { type OneTimeSecret, OneTimeSecretDialog } from './OneTimeSecretDialog';
import { IdpMetadata, SAML_CONNECTION } from './saml-connection';
import { TEXT_APPS } from './texts';

const PROTOCOLS = { oidc: OIDC_CONNECTION, saml: SAML_CONNECTION };

const Head = styled.div`
  ${spreadRow}
  margin-bottom: 8px;
  h2 { margin: 0; }
`;

const Intro = styled.p`
  margin: 0 0 16px;
  color: ${theme.color.muted};
`;

const Rows = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  > li {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    gap: 8px 14px;
    align-items: start;
    padding: 14px 0;
    border-top: 1px solid ${theme.color.border};
  }
  > li > :nth-child(n + 3) { grid-column: 1 / -1; }
  h3 { margin: 0 0 4px; font-size: 1.05rem; }
  p { margin: 2px 0; color: ${theme.color.muted}; font-size: 0.9rem; }
  .protocol {
    display: inline-block;
    margin: 0 0 4px;
    padding: 1px 8px;
    border: 1px solid ${theme.color.border};
    border-radius: 999px;
    color: ${theme.color.text};
    font-size: 0.8rem;
    font-weight: 600;
  }
  code, li li { overflow-wrap: anywhere; }
  ul { margin: 2px 0 0; padding-left: 20px; font-size: 0.9rem; }
  .notice { margin-top: 8px; }
  .actions { display: flex; flex-wrap: wrap; gap: 8px; justify-content: flex-end; }
  @media (max-width: ${theme.breakpoint.mobile}) {
    > li { grid-template-columns: minmax(0, 1fr); }
    .actions { justify-content: flex-start; }
  }
`;

/** Each protocol's apps as the API lists them. */
interface Lists {
  oidc: OidcClient[];
  saml: SamlApp[];
}

type Editing = { kind: 'create' } | { kind: 'edit'; row: ConnectedAppRow } | null;

/** A protocol's list, its failure said with the protocol's own fallback. */
const listOf = <T,>(protocol: ConnectionProtocol<T>) =>
  protocol.list().catch((caught: unknown) => Promise.reject(errorMessage(caught, protocol.listFallback)));

/**
 * 'Aplicaciones conectadas' of the apps page (docs/decisions/0123-connected-apps-and-one-sign-in-form.md): every
 * partner app that signs in with the portal, whatever its protocol, in one list; each row names its protocol and
 * shows that protocol's details and buttons (oidc-connection.tsx, saml-connection.tsx). One 'Conectar aplicación'
 * asks for the protocol and then its part; the list, the rows, the questions before an action, the secret shown once
 * and the dialog exist once here. The portal's SAML metadata address, which every SAML partner is given, is on top.
 */
export function ConnectedAppsSection() {
  const [lists, setLists] = useState<Lists | null>(null);
  const [apps, setApps] = useState<App[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [alert, showAlert] = useTimedMessage(ADMIN_ALERT_MS);
  const [editing, setEditing] = useState<Editing>(null);
  const [confirming, setConfirming] = useState<{ key: string; confirmation: Confirmation } | null>(null);
  const [secret, setSecret] = useState<OneTimeSecret | null>(null);
  // The rows whose panel is open ('Eventos'): each loads what it shows only when asked.
  const [open, toggle] = useToggleSet<string>();

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      const [oidc, saml] = await Promise.all([listOf(OIDC_CONNECTION), listOf(SAML_CONNECTION)]);
      setLists({ oidc, saml });
    } catch (message) {
      setLoadError(String(message));
    }
  }, []);

  useEffect(() => {
    void load();
    // The catalogue names the linked apps and fills the dialog's list; without it the ids are shown.
    listApps(1, APPS_PAGE_SIZE).then(
      (page) => setApps(page.data),
      () => undefined,
    );
  }, [load]);

  const appName = (appId: number | null) =>
    appId === null ? TEXT_APPS.noLinkedApp : (apps.find((app) => app.id === appId)?.nombre ?? `App ${appId}`);
  const rows = lists
    ? [
        ...lists.oidc.map((client) => OIDC_CONNECTION.row(client, { appName })),
        ...lists.saml.map((app) => SAML_CONNECTION.row(app, { appName })),
      ]
    : null;

  const close = useCallback(() => setEditing(null), []);
  const closeConfirm = useCallback(() => setConfirming(null), []);

  /** After an action: the dialog closed, its message, the secret to show once if any, and the list read again. */
  const finish = (outcome: Outcome) => {
    setEditing(null);
    setConfirming(null);
    showAlert({ tone: 'success', text: outcome.done });
    if (outcome.secret) setSecret(outcome.secret);
    return load();
  };
  const create = async (form: ConnectionForm) => finish(await PROTOCOLS[form.protocolo].create(form));
  const save = (row: ConnectedAppRow) => async (form: ConnectionForm) => finish(await row.edit.save(form));

  return (
    <Panel aria-labelledby="connected-apps-title">
      <Head>
        <h2 id="connected-apps-title">{TEXT_APPS.connectedApps}</h2>
        <Button onClick={() => setEditing({ kind: 'create' })}>{TEXT_APPS.connectApp}</Button>
      </Head>
      <Intro>{TEXT_APPS.connectedAppsIntro}</Intro>
      <IdpMetadata />
      {alert && (
        <Alert tone={alert.tone} holdsLostFocus>
          {alert.text}
        </Alert>
      )}
      {loadError && <LoadFailed message={loadError} onRetry={() => void load()} />}
      {!rows && !loadError && <Spinner label={TEXT_APPS.loadingConnectedApps} />}
      {rows?.length === 0 && <p>{TEXT_APPS.noConnectedApps}</p>}
      {rows && rows.length > 0 && (
        <Rows>
          {rows.map((row) => (
            <li key={row.key} data-testid={row.testId}>
              <div>
                <span className="protocol">{TEXT_APPS.protocolNames[row.protocol]}</span>
                <h3>{row.nombre}</h3>
                {row.details}
              </div>
              <div className="actions">
                {row.actions.map((action) => (
                  <Button
                    key={action.text}
                    $variant="secondary"
                    aria-label={action.name}
                    {...(action.kind === 'panel'
                      ? { 'aria-expanded': open.has(action.panelId), 'aria-controls': action.panelId }
                      : {})}
                    onClick={() =>
                      action.kind === 'edit'
                        ? setEditing({ kind: 'edit', row })
                        : action.kind === 'confirm'
                          ? setConfirming({ key: `${row.key}-${action.text}`, confirmation: action.confirmation })
                          : toggle(action.panelId)
                    }
                  >
                    {action.text}
                  </Button>
                ))}
              </div>
              {row.actions.map(
                (action) =>
                  action.kind === 'panel' &&
                  open.has(action.panelId) && <Fragment key={action.panelId}>{action.panel}</Fragment>,
              )}
            </li>
          ))}
        </Rows>
      )}
      {editing && (
        <ConnectionDialog
          title={editing.kind === 'create' ? TEXT_APPS.connectApp : editing.row.edit.title}
          initial={editing.kind === 'create' ? emptyConnectionForm : editing.row.edit.initial}
          protocols={PROTOCOLS}
          apps={apps}
          editing={editing.kind === 'edit'}
          onSubmit={editing.kind === 'create' ? create : save(editing.row)}
          onClose={close}
        />
      )}
      {confirming && (
        <ConfirmDialog
          key={confirming.key}
          title={confirming.confirmation.title}
          text={confirming.confirmation.text}
          confirmLabel={confirming.confirmation.confirmLabel}
          fallback={confirming.confirmation.fallback}
          onConfirm={async () => finish(await confirming.confirmation.run())}
          onClose={closeConfirm}
        />
      )}
      {secret && <OneTimeSecretDialog secret={secret} onClose={() => setSecret(null)} />}
    </Panel>
  );
}
