import type { OidcClient } from '@portal/shared';
import {
  createOidcClient,
  deleteOidcClient,
  listOidcClients,
  rotateOidcClientSecret,
  updateOidcClient,
} from '../../api/admin';
import { ADMIN_FALLBACK } from '../../api/texts';
import { partFields } from '../../components/FormDialog';
import { TEXT_ADMIN } from '../../texts';
import type { ConnectedAppRow, ConnectionProtocol, Outcome, RowAction, RowContext } from './connected-app';
import { emptyConnectionForm } from './connected-app';
import { clientToForm, formToClientInput, validateOidcClientForm } from './oidc-client-form';
import { OIDC_CLIENT_FIELD_LABELS, OidcClientFields } from './OidcClientFields';
import { eventsAction } from './partner-events/PartnerEventsPanel';
import { TEXT_APPS } from './texts';

/** A client's details: type, party, catalogue app, kind of subject, device sign-in, client ID and return addresses. */
function ClientDetails({ client, appName }: { client: OidcClient; appName: RowContext['appName'] }) {
  return (
    <>
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
    </>
  );
}

/** 'Eventos' (its receivers and deliveries under the row), edit, rotate a confidential client's secret, delete. */
function clientActions(client: OidcClient): RowAction[] {
  const rotate = async (): Promise<Outcome> => {
    const { clientSecret } = await rotateOidcClientSecret(client.clientId);
    return {
      done: TEXT_APPS.secretRotated,
      secret: { nombre: client.nombre, clientId: client.clientId, clientSecret },
    };
  };
  const remove = async (): Promise<Outcome> => {
    await deleteOidcClient(client.clientId);
    return { done: TEXT_APPS.clientDeleted };
  };
  return [
    eventsAction(client),
    { kind: 'edit', text: TEXT_ADMIN.edit, name: TEXT_APPS.editOidcClient(client.nombre) },
    // A public client has no secret to rotate.
    ...(client.publico
      ? []
      : [
          {
            kind: 'confirm' as const,
            text: TEXT_APPS.rotateSecret,
            name: TEXT_APPS.rotateSecretOf(client.nombre),
            confirmation: {
              title: TEXT_APPS.confirmRotateTitle(client.nombre),
              text: TEXT_APPS.confirmRotate,
              confirmLabel: TEXT_APPS.rotateSecret,
              fallback: ADMIN_FALLBACK.rotateSecret,
              run: rotate,
            },
          },
        ]),
    {
      kind: 'confirm',
      text: TEXT_APPS.deleteClient,
      name: TEXT_APPS.deleteClientOf(client.nombre),
      confirmation: {
        title: TEXT_APPS.confirmDeleteTitle(client.nombre),
        text: TEXT_APPS.confirmDelete,
        confirmLabel: TEXT_APPS.deleteClient,
        fallback: ADMIN_FALLBACK.deleteOidcClient,
        run: remove,
      },
    },
  ];
}

/**
 * OpenID Connect in 'Aplicaciones conectadas' (docs/decisions/0056-openid-connect-screens.md): a client with its type,
 * party, catalogue app and return addresses; its secret, when it has one, shown once on creating and rotating.
 */
export const OIDC_CONNECTION: ConnectionProtocol<OidcClient> = {
  protocol: 'oidc',
  list: listOidcClients,
  listFallback: ADMIN_FALLBACK.oidcClients,
  row: (client, { appName }): ConnectedAppRow => ({
    key: `oidc-${client.clientId}`,
    protocol: 'oidc',
    testId: 'cliente-oidc',
    nombre: client.nombre,
    details: <ClientDetails client={client} appName={appName} />,
    actions: clientActions(client),
    edit: {
      title: TEXT_APPS.editOidcClient(client.nombre),
      initial: { ...emptyConnectionForm, oidc: clientToForm(client) },
      save: async (form) => {
        await updateOidcClient(client.clientId, formToClientInput(form.oidc));
        return { done: TEXT_APPS.clientUpdated };
      },
    },
  }),
  create: async (form) => {
    const input = formToClientInput(form.oidc);
    const created = await createOidcClient(input);
    return {
      done: TEXT_APPS.clientCreated,
      ...(created.clientSecret
        ? { secret: { nombre: input.nombre, clientId: created.clientId, clientSecret: created.clientSecret } }
        : {}),
    };
  },
  validate: (form) => validateOidcClientForm(form.oidc),
  labels: OIDC_CLIENT_FIELD_LABELS,
  fields: ({ fields, apps, saved }) => (
    <OidcClientFields fields={partFields(fields, 'oidc')} apps={apps} savedSubject={saved?.oidc.sujeto ?? null} />
  ),
};
