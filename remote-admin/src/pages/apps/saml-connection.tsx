import styled from 'styled-components';
import { Alert, CopyButton, type SamlApp, theme } from '@portal/shared';
import { createSamlApp, deleteSamlApp, listSamlApps, samlIdpMetadataUrl, updateSamlApp } from '../../api/admin';
import { ADMIN_FALLBACK } from '../../api/texts';
import { partFields } from '../../components/FormDialog';
import { TEXT_ADMIN } from '../../texts';
import type { ConnectedAppRow, ConnectionProtocol, RowContext } from './connected-app';
import { emptyConnectionForm } from './connected-app';
import {
  SAML_APP_FIELD_LABELS,
  SamlAppFields,
  samlAppInput,
  samlAppToForm,
  validateSamlAppForm,
} from './SamlAppFields';
import { eventsAction } from './partner-events/PartnerEventsPanel';
import { TEXT_APPS } from './texts';

/** The portal's metadata address: the one value every SAML partner is given, with 'Copiar'. */
const Metadata = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr) auto;
  gap: 8px 12px;
  align-items: center;
  margin: 0 0 16px;
  padding: 12px 14px;
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius};
  h3 { grid-column: 1 / -1; margin: 0; font-size: 0.95rem; }
  code { display: block; overflow-wrap: anywhere; padding: 6px 8px; border-radius: 6px; background: ${theme.color.background}; }
  .copy { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
  p { grid-column: 1 / -1; margin: 0; color: ${theme.color.muted}; font-size: 0.9rem; }
  @media (max-width: ${theme.breakpoint.mobile}) {
    grid-template-columns: minmax(0, 1fr);
  }
`;

/** 'Metadatos del portal (IdP)': what a partner app imports to trust the portal as its SAML identity provider. */
export function IdpMetadata() {
  const metadataUrl = samlIdpMetadataUrl();
  return (
    <Metadata aria-labelledby="saml-idp-metadata">
      <h3 id="saml-idp-metadata">{TEXT_APPS.idpMetadata}</h3>
      <code>{metadataUrl}</code>
      <span className="copy">
        <CopyButton text={metadataUrl} label={TEXT_APPS.copyIdpMetadata} />
      </span>
      <p>{TEXT_APPS.idpMetadataHint}</p>
    </Metadata>
  );
}

/**
 * A SAML app's details: entity ID, portal app, NameID, ACS addresses and logout, and a notice while logouts to it are
 * being retried.
 */
function SamlAppDetails({ app, appName }: { app: SamlApp; appName: RowContext['appName'] }) {
  return (
    <>
      <p>
        {TEXT_APPS.entityId}: <code>{app.entityId}</code>
      </p>
      <p>
        {app.primeraParte && `${TEXT_APPS.firstParty} · `}
        {TEXT_APPS.portalApp}: {appName(app.appId)} · {TEXT_APPS.nameIdFormat}:{' '}
        {TEXT_APPS.nameIdFormats[app.formatoNameId]}
      </p>
      <p id={`acs-${app.id}`}>{TEXT_APPS.acsUrls}:</p>
      <ul aria-labelledby={`acs-${app.id}`}>
        {app.urlsAcs.map((url) => (
          <li key={url}>{url}</li>
        ))}
      </ul>
      <p>
        {TEXT_APPS.logoutUrl}:{' '}
        {app.urlCierreSesion ?? (app.urlCierreSesionNavegador ? TEXT_APPS.noSoapLogout : TEXT_APPS.noLogoutUrl)}
      </p>
      {app.urlCierreSesionNavegador && (
        <p>
          {TEXT_APPS.browserLogoutUrl}: {app.urlCierreSesionNavegador}
        </p>
      )}
      {(app.cierresPendientes > 0 || app.ultimoErrorCierre) && (
        <div className="notice">
          <Alert tone="info">
            {app.cierresPendientes > 0 && <span>{TEXT_APPS.pendingLogouts(app.cierresPendientes)} </span>}
            {app.ultimoErrorCierre && <span>{TEXT_APPS.lastLogoutError(app.ultimoErrorCierre)}</span>}
          </Alert>
        </div>
      )}
    </>
  );
}

/**
 * SAML 2.0 in 'Aplicaciones conectadas' (docs/decisions/0101-saml-admin-panel.md): a partner app that signs in with
 * the portal as its identity provider, registered by its SP metadata; edit and delete.
 */
export const SAML_CONNECTION: ConnectionProtocol<SamlApp> = {
  protocol: 'saml',
  list: listSamlApps,
  listFallback: ADMIN_FALLBACK.samlApps,
  row: (app, { appName }): ConnectedAppRow => ({
    key: `saml-${app.id}`,
    protocol: 'saml',
    testId: 'aplicacion-saml',
    nombre: app.nombre,
    details: <SamlAppDetails app={app} appName={appName} />,
    actions: [
      eventsAction(app),
      { kind: 'edit', text: TEXT_ADMIN.edit, name: TEXT_APPS.editSamlApp(app.nombre) },
      {
        kind: 'confirm',
        text: TEXT_APPS.deleteClient,
        name: TEXT_APPS.deleteSamlAppOf(app.nombre),
        confirmation: {
          title: TEXT_APPS.confirmDeleteSamlTitle(app.nombre),
          text: TEXT_APPS.confirmDeleteSaml,
          confirmLabel: TEXT_APPS.deleteClient,
          fallback: ADMIN_FALLBACK.deleteSamlApp,
          run: async () => {
            await deleteSamlApp(app.id);
            return { done: TEXT_APPS.samlAppDeleted };
          },
        },
      },
    ],
    edit: {
      title: TEXT_APPS.editSamlApp(app.nombre),
      initial: { ...emptyConnectionForm, protocolo: 'saml', saml: samlAppToForm(app) },
      save: async (form) => {
        await updateSamlApp(app.id, samlAppInput(form.saml));
        return { done: TEXT_APPS.samlAppUpdated };
      },
    },
  }),
  create: async (form) => {
    await createSamlApp(samlAppInput(form.saml));
    return { done: TEXT_APPS.samlAppCreated };
  },
  validate: (form, editing) => validateSamlAppForm(form.saml, editing),
  labels: SAML_APP_FIELD_LABELS,
  fields: ({ fields, apps, saved }) => (
    <SamlAppFields fields={partFields(fields, 'saml')} apps={apps} editing={saved !== null} />
  ),
};
