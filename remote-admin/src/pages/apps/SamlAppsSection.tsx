import { useCallback, useEffect, useState } from 'react';
import styled from 'styled-components';
import type { SamlApp } from '@portal/shared';
import {
  Alert,
  APPS_PAGE_SIZE,
  Button,
  CopyButton,
  errorMessage,
  listApps,
  LoadFailed,
  Spinner,
  theme,
  type App,
  useTimedMessage,
} from '@portal/shared';
import { createSamlApp, deleteSamlApp, listSamlApps, samlIdpMetadataUrl, updateSamlApp } from '../../api/admin';
import { ADMIN_FALLBACK } from '../../api/texts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Panel, spreadRow } from '../../components/Page';
import { ADMIN_ALERT_MS, TEXT_ADMIN } from '../../texts';
import { SamlAppDialog, type SamlAppForm, samlAppInput, samlAppToForm } from './SamlAppDialog';
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

/** The portal's metadata address: the one value every partner is given, with 'Copiar'. */
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

const Apps = styled.ul`
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
  h3 { margin: 0 0 4px; font-size: 1.05rem; }
  p { margin: 2px 0; color: ${theme.color.muted}; font-size: 0.9rem; }
  code, li li { overflow-wrap: anywhere; }
  ul { margin: 2px 0 0; padding-left: 20px; font-size: 0.9rem; }
  .notice { margin-top: 8px; }
  .actions { display: flex; flex-wrap: wrap; gap: 8px; justify-content: flex-end; }
  @media (max-width: ${theme.breakpoint.mobile}) {
    > li { grid-template-columns: minmax(0, 1fr); }
    .actions { justify-content: flex-start; }
  }
`;

type Editing = { kind: 'create' } | { kind: 'edit'; app: SamlApp } | null;

/**
 * 'Aplicaciones SAML' of the apps page: the partner apps that sign in with the portal as their SAML identity provider
 * (docs/decisions/0101-saml-admin-panel.md), each with its entity ID, ACS addresses, logout, NameID and portal app,
 * and a notice while logouts to it are being retried; the portal's own metadata address on top, to give to each
 * partner. Create, edit, and delete after a question.
 */
export function SamlAppsSection() {
  const [samlApps, setSamlApps] = useState<SamlApp[] | null>(null);
  const [apps, setApps] = useState<App[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [alert, showAlert] = useTimedMessage(ADMIN_ALERT_MS);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<SamlApp | null>(null);
  const metadataUrl = samlIdpMetadataUrl();

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      setSamlApps(await listSamlApps());
    } catch (caught) {
      setLoadError(errorMessage(caught, ADMIN_FALLBACK.samlApps));
    }
  }, []);

  useEffect(() => {
    void load();
    // The catalogue names the tied apps and fills the form's list; without it the ids are shown.
    listApps(1, APPS_PAGE_SIZE).then(
      (page) => setApps(page.data),
      () => undefined,
    );
  }, [load]);

  const appName = (appId: number | null) =>
    appId === null ? TEXT_APPS.noLinkedApp : (apps.find((app) => app.id === appId)?.nombre ?? `App ${appId}`);
  const close = useCallback(() => setEditing(null), []);
  const closeDelete = useCallback(() => setDeleting(null), []);

  const create = async (form: SamlAppForm) => {
    await createSamlApp(samlAppInput(form));
    setEditing(null);
    showAlert({ tone: 'success', text: TEXT_APPS.samlAppCreated });
    await load();
  };

  const update = (app: SamlApp) => async (form: SamlAppForm) => {
    await updateSamlApp(app.id, samlAppInput(form));
    setEditing(null);
    showAlert({ tone: 'success', text: TEXT_APPS.samlAppUpdated });
    await load();
  };

  const remove = (app: SamlApp) => async () => {
    await deleteSamlApp(app.id);
    setDeleting(null);
    showAlert({ tone: 'success', text: TEXT_APPS.samlAppDeleted });
    await load();
  };

  return (
    <Panel aria-labelledby="saml-apps-title">
      <Head>
        <h2 id="saml-apps-title">{TEXT_APPS.samlApps}</h2>
        <Button onClick={() => setEditing({ kind: 'create' })}>{TEXT_APPS.newSamlApp}</Button>
      </Head>
      <Intro>{TEXT_APPS.samlAppsIntro}</Intro>
      <Metadata aria-labelledby="saml-idp-metadata">
        <h3 id="saml-idp-metadata">{TEXT_APPS.idpMetadata}</h3>
        <code>{metadataUrl}</code>
        <span className="copy">
          <CopyButton text={metadataUrl} label={TEXT_APPS.copyIdpMetadata} />
        </span>
        <p>{TEXT_APPS.idpMetadataHint}</p>
      </Metadata>
      {alert && (
        <Alert tone={alert.tone} holdsLostFocus>
          {alert.text}
        </Alert>
      )}
      {loadError && <LoadFailed message={loadError} onRetry={() => void load()} />}
      {!samlApps && !loadError && <Spinner label={TEXT_APPS.loadingSamlApps} />}
      {samlApps?.length === 0 && <p>{TEXT_APPS.noSamlApps}</p>}
      {samlApps && samlApps.length > 0 && (
        <Apps>
          {samlApps.map((app) => (
            <li key={app.id} data-testid="aplicacion-saml">
              <div>
                <h3>{app.nombre}</h3>
                <p>
                  {TEXT_APPS.entityId}: <code>{app.entityId}</code>
                </p>
                <p>
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
                  {app.urlCierreSesion ??
                    (app.urlCierreSesionNavegador ? TEXT_APPS.noSoapLogout : TEXT_APPS.noLogoutUrl)}
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
              </div>
              <div className="actions">
                <Button
                  $variant="secondary"
                  aria-label={TEXT_APPS.editSamlApp(app.nombre)}
                  onClick={() => setEditing({ kind: 'edit', app })}
                >
                  {TEXT_ADMIN.edit}
                </Button>
                <Button
                  $variant="secondary"
                  aria-label={TEXT_APPS.deleteSamlAppOf(app.nombre)}
                  onClick={() => setDeleting(app)}
                >
                  {TEXT_APPS.deleteClient}
                </Button>
              </div>
            </li>
          ))}
        </Apps>
      )}
      {editing && (
        <SamlAppDialog
          title={editing.kind === 'create' ? TEXT_APPS.newSamlApp : TEXT_APPS.editSamlApp(editing.app.nombre)}
          initial={samlAppToForm(editing.kind === 'edit' ? editing.app : null)}
          apps={apps}
          editing={editing.kind === 'edit'}
          onSubmit={editing.kind === 'create' ? create : update(editing.app)}
          onClose={close}
        />
      )}
      {deleting && (
        <ConfirmDialog
          key={deleting.id}
          title={TEXT_APPS.confirmDeleteSamlTitle(deleting.nombre)}
          text={TEXT_APPS.confirmDeleteSaml}
          confirmLabel={TEXT_APPS.deleteClient}
          fallback={ADMIN_FALLBACK.deleteSamlApp}
          onConfirm={remove(deleting)}
          onClose={closeDelete}
        />
      )}
    </Panel>
  );
}
