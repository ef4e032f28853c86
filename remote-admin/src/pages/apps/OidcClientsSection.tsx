import { useCallback, useEffect, useState } from 'react';
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
  Spinner,
  theme,
  useTimedMessage,
} from '@portal/shared';
import {
  createOidcClient,
  deleteOidcClient,
  listOidcClients,
  rotateOidcClientSecret,
  updateOidcClient,
} from '../../api/admin';
import { ADMIN_FALLBACK } from '../../api/texts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Panel, spreadRow } from '../../components/Page';
import { ADMIN_ALERT_MS, TEXT_ADMIN } from '../../texts';
import { clientToForm, emptyOidcClientForm, formToClientInput, type OidcClientForm } from './oidc-client-form';
import { OidcClientDialog } from './OidcClientDialog';
import { type OneTimeSecret, OneTimeSecretDialog } from './OneTimeSecretDialog';
import { PartnerEventsPanel } from './partner-events/PartnerEventsPanel';
import { TEXT_EVENTS } from './partner-events/texts';
import { TEXT_APPS } from './texts';

const Head = styled.div`
  ${spreadRow}
  margin-bottom: 8px;
  h2 { margin: 0; }
`;

const Intro = styled.p`
  margin: 0 0 16px;
  color: ${theme.color.muted};
`;

const Clients = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  > li {
    display: grid;
    grid-template-columns: 1fr auto;
    gap: 8px 14px;
    align-items: start;
    padding: 14px 0;
    border-top: 1px solid ${theme.color.border};
  }
  h3 { margin: 0 0 4px; font-size: 1.05rem; }
  p { margin: 2px 0; color: ${theme.color.muted}; font-size: 0.9rem; }
  code, li li { overflow-wrap: anywhere; }
  ul { margin: 2px 0 0; padding-left: 20px; font-size: 0.9rem; }
  .actions { display: flex; flex-wrap: wrap; gap: 8px; justify-content: flex-end; }
  @media (max-width: ${theme.breakpoint.mobile}) {
    > li { grid-template-columns: 1fr; }
    .actions { justify-content: flex-start; }
  }
`;

type Editing = { kind: 'create' } | { kind: 'edit'; client: OidcClient } | null;
type Confirming = { kind: 'rotate' | 'delete'; client: OidcClient } | null;

/**
 * 'Clientes OpenID Connect' of the apps page: the apps that sign in with the portal (docs/decisions/0056), each with
 * its type, party, catalogue app and return addresses; create and edit them, rotate a confidential client's secret
 * and delete a client (each after a confirmation). A secret is shown once, in its own dialog. 'Eventos' opens a
 * client's event subscriptions and their deliveries under it.
 */
export function OidcClientsSection() {
  const [clients, setClients] = useState<OidcClient[] | null>(null);
  const [apps, setApps] = useState<App[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [alert, showAlert] = useTimedMessage(ADMIN_ALERT_MS);
  const [editing, setEditing] = useState<Editing>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [secret, setSecret] = useState<OneTimeSecret | null>(null);
  // The clients whose 'Eventos' are open: each loads its subscriptions and deliveries only when asked.
  const [eventsOpen, setEventsOpen] = useState<ReadonlySet<string>>(new Set());
  const toggleEvents = (clientId: string) =>
    setEventsOpen((open) => {
      const next = new Set(open);
      if (!next.delete(clientId)) next.add(clientId);
      return next;
    });

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      setClients(await listOidcClients());
    } catch (caught) {
      setLoadError(errorMessage(caught, ADMIN_FALLBACK.oidcClients));
    }
  }, []);

  useEffect(() => {
    void load();
    // The catalogue names the linked apps and fills the form's list; without it the ids are shown.
    listApps(1, APPS_PAGE_SIZE).then(
      (page) => setApps(page.data),
      () => undefined,
    );
  }, [load]);

  const appName = (appId: number | null) =>
    appId === null ? TEXT_APPS.noLinkedApp : (apps.find((app) => app.id === appId)?.nombre ?? `App ${appId}`);
  const close = useCallback(() => setEditing(null), []);
  const closeConfirm = useCallback(() => setConfirming(null), []);

  const create = async (form: OidcClientForm) => {
    const input = formToClientInput(form);
    const created = await createOidcClient(input);
    setEditing(null);
    showAlert({ tone: 'success', text: TEXT_APPS.clientCreated });
    if (created.clientSecret)
      setSecret({ nombre: input.nombre, clientId: created.clientId, clientSecret: created.clientSecret });
    await load();
  };

  const update = (client: OidcClient) => async (form: OidcClientForm) => {
    await updateOidcClient(client.clientId, formToClientInput(form));
    setEditing(null);
    showAlert({ tone: 'success', text: TEXT_APPS.clientUpdated });
    await load();
  };

  const rotate = (client: OidcClient) => async () => {
    const { clientSecret } = await rotateOidcClientSecret(client.clientId);
    setConfirming(null);
    showAlert({ tone: 'success', text: TEXT_APPS.secretRotated });
    setSecret({ nombre: client.nombre, clientId: client.clientId, clientSecret });
  };

  const remove = (client: OidcClient) => async () => {
    await deleteOidcClient(client.clientId);
    setConfirming(null);
    showAlert({ tone: 'success', text: TEXT_APPS.clientDeleted });
    await load();
  };

  /** A client's buttons, each named for it: a public client has no secret to rotate. */
  const clientActions = (client: OidcClient) => [
    {
      text: TEXT_ADMIN.edit,
      name: TEXT_APPS.editOidcClient(client.nombre),
      run: () => setEditing({ kind: 'edit', client }),
    },
    ...(client.publico
      ? []
      : [
          {
            text: TEXT_APPS.rotateSecret,
            name: TEXT_APPS.rotateSecretOf(client.nombre),
            run: () => setConfirming({ kind: 'rotate', client }),
          },
        ]),
    {
      text: TEXT_APPS.deleteClient,
      name: TEXT_APPS.deleteClientOf(client.nombre),
      run: () => setConfirming({ kind: 'delete', client }),
    },
  ];

  /** The question before rotating a secret or deleting a client, and what the answer does. */
  const confirmation = ({ kind, client }: NonNullable<Confirming>) =>
    kind === 'rotate'
      ? {
          title: TEXT_APPS.confirmRotateTitle(client.nombre),
          text: TEXT_APPS.confirmRotate,
          confirmLabel: TEXT_APPS.rotateSecret,
          onConfirm: rotate(client),
          fallback: ADMIN_FALLBACK.rotateSecret,
        }
      : {
          title: TEXT_APPS.confirmDeleteTitle(client.nombre),
          text: TEXT_APPS.confirmDelete,
          confirmLabel: TEXT_APPS.deleteClient,
          onConfirm: remove(client),
          fallback: ADMIN_FALLBACK.deleteOidcClient,
        };

  return (
    <Panel aria-labelledby="oidc-clients-title">
      <Head>
        <h2 id="oidc-clients-title">{TEXT_APPS.oidcClients}</h2>
        <Button onClick={() => setEditing({ kind: 'create' })}>{TEXT_APPS.newOidcClient}</Button>
      </Head>
      <Intro>{TEXT_APPS.oidcClientsIntro}</Intro>
      {alert && <Alert tone={alert.tone}>{alert.text}</Alert>}
      {loadError && <LoadFailed message={loadError} onRetry={() => void load()} />}
      {!clients && !loadError && <Spinner label={TEXT_APPS.loadingOidcClients} />}
      {clients?.length === 0 && <p>{TEXT_APPS.noOidcClients}</p>}
      {clients && clients.length > 0 && (
        <Clients>
          {clients.map((client) => (
            <li key={client.clientId} data-testid="cliente-oidc">
              <div>
                <h3>{client.nombre}</h3>
                <p>
                  {client.publico ? TEXT_APPS.public : TEXT_APPS.confidential} ·{' '}
                  {client.primeraParte ? TEXT_APPS.firstParty : TEXT_APPS.thirdParty} · {TEXT_APPS.linkedApp}:{' '}
                  {appName(client.appId)}
                </p>
                <p>
                  {TEXT_APPS.subjectKind}: {TEXT_APPS.subjectKinds[client.sujeto]}
                </p>
                {client.dispositivos && <p>{TEXT_APPS.deviceFlow}</p>}
                <p>
                  {TEXT_APPS.clientId}: <code>{client.clientId}</code>
                </p>
                {/* A public client that signs in on devices only has no return address to list. */}
                {client.redirectUris.length > 0 && (
                  <>
                    <p id={`uris-${client.clientId}`}>{TEXT_APPS.redirectUris}:</p>
                    <ul aria-labelledby={`uris-${client.clientId}`}>
                      {client.redirectUris.map((uri) => (
                        <li key={uri}>{uri}</li>
                      ))}
                    </ul>
                  </>
                )}
              </div>
              <div className="actions">
                <Button
                  $variant="secondary"
                  aria-label={TEXT_EVENTS.eventsOf(client.nombre)}
                  aria-expanded={eventsOpen.has(client.clientId)}
                  aria-controls={`panel-eventos-${client.clientId}`}
                  onClick={() => toggleEvents(client.clientId)}
                >
                  {TEXT_EVENTS.events}
                </Button>
                {clientActions(client).map((action) => (
                  <Button key={action.text} $variant="secondary" aria-label={action.name} onClick={action.run}>
                    {action.text}
                  </Button>
                ))}
              </div>
              {eventsOpen.has(client.clientId) && <PartnerEventsPanel client={client} />}
            </li>
          ))}
        </Clients>
      )}
      {editing && (
        <OidcClientDialog
          title={editing.kind === 'create' ? TEXT_APPS.newOidcClient : TEXT_APPS.editOidcClient(editing.client.nombre)}
          initial={editing.kind === 'create' ? emptyOidcClientForm : clientToForm(editing.client)}
          apps={apps}
          editing={editing.kind === 'edit'}
          onSubmit={editing.kind === 'create' ? create : update(editing.client)}
          onClose={close}
        />
      )}
      {confirming && (
        <ConfirmDialog
          key={`${confirming.kind}-${confirming.client.clientId}`}
          {...confirmation(confirming)}
          onClose={closeConfirm}
        />
      )}
      {secret && <OneTimeSecretDialog secret={secret} onClose={() => setSecret(null)} />}
    </Panel>
  );
}
