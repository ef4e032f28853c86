import { useCallback, useEffect, useState } from 'react';
import styled from 'styled-components';
import {
  Alert,
  AppIcon,
  Button,
  errorMessage,
  FALLBACK,
  listApps,
  Spinner,
  TEXT,
  theme,
  type App,
  type Paged,
  useTimedMessage,
  VisuallyHidden,
} from '@portal/shared';
import { createApp, updateApp } from '../../api/admin';
import { AdminPage, Panel, spreadRow } from '../../components/Page';
import { ListFooter } from '../../components/Pagination';
import { useToggleSet } from '../../hooks/useToggleSet';
import { appended, clampPage } from '../../rules/pagination';
import { ADMIN_ALERT_MS, TEXT_ADMIN } from '../../texts';
import { appToForm, emptyAppForm, formToInput, type AppForm } from './app-form';
import { AppFormDialog } from './AppFormDialog';
import { AppRolesPanel } from './app-roles/AppRolesPanel';
import { TEXT_ROLES } from './app-roles/texts';
import { ConnectedAppsSection } from './ConnectedAppsSection';
import { TEXT_APPS } from './texts';

/**
 * Spec §7, §9: after an update the list is reloaded with page 1, limit 10. Ten is also the page size the page opens
 * with; the sizes to choose from and the page numbers are the users table's.
 */
const APPS_PAGE_SIZE = 10;

const Head = styled.div`
  ${spreadRow}
  margin-bottom: 20px;
  h1 { margin: 0; }
`;

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  li {
    display: grid;
    grid-template-columns: 48px 1fr auto;
    gap: 14px;
    align-items: center;
    padding: 14px 0;
    border-bottom: 1px solid ${theme.color.border};
  }
  h2 { margin: 0 0 4px; font-size: 1.05rem; }
  p { margin: 0; color: ${theme.color.muted}; font-size: 0.9rem; }
  .flags { margin-top: 6px; font-size: 0.85rem; color: ${theme.color.text}; }
  .actions { display: flex; flex-wrap: wrap; gap: 8px; justify-content: flex-end; }
  @media (max-width: ${theme.breakpoint.mobile}) {
    li { grid-template-columns: 40px 1fr; }
    li > .actions { grid-column: 1 / -1; justify-content: flex-start; }
  }
`;

type Editing = { kind: 'create' } | { kind: 'edit'; app: App } | null;

/**
 * The apps of the catalogue, with edit and create (spec §2: the page whose placeholder read 'Pagina de apps'), and
 * the partner apps connected to the portal's sign-in, by OpenID Connect or SAML 2.0.
 */
export default function AppsAdminPage() {
  const [apps, setApps] = useState<Paged<App> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [alert, showAlert] = useTimedMessage(ADMIN_ALERT_MS);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(APPS_PAGE_SIZE);
  const [reloads, setReloads] = useState(0);
  // The apps whose 'Roles' are open under their row: each loads its roles only when asked.
  const [rolesOpen, toggleRoles] = useToggleSet<number>();

  useEffect(() => {
    let current = true;
    listApps(page, limit).then(
      (result) => {
        if (!current) return;
        setApps(result);
        setError(null);
        // A page past the last one (the list shrank meanwhile) moves to the last page.
        const shown = clampPage(page, result.totalPages);
        if (shown !== page) setPage(shown);
      },
      (failure) => {
        if (current) setError(errorMessage(failure, FALLBACK.listApps));
      },
    );
    return () => {
      current = false;
    };
  }, [page, limit, reloads]);

  /** Spec §7: after an update, page 1 again (with the size chosen; 10 unless changed). */
  const reloadFirstPage = () => {
    setPage(1);
    setReloads((n) => n + 1);
  };

  const close = useCallback(() => setEditing(null), []);

  const create = async (form: AppForm) => {
    const created = await createApp(formToInput(form));
    // Spec §9: a new app is appended to the end of the list shown; the count of pages follows the new total.
    setApps((current) => current && appended(current, created, limit));
    setEditing(null);
    showAlert({ tone: 'success', text: TEXT_APPS.appCreated });
  };

  const update = (app: App) => async (form: AppForm) => {
    await updateApp(app.id, formToInput(form));
    setEditing(null);
    showAlert({ tone: 'success', text: TEXT_APPS.appUpdated });
    reloadFirstPage();
  };

  return (
    <AdminPage>
      <Head>
        <h1>{TEXT_APPS.appsTitle}</h1>
        <Button onClick={() => setEditing({ kind: 'create' })}>{TEXT_APPS.newApp}</Button>
      </Head>
      {alert && <Alert tone={alert.tone}>{alert.text}</Alert>}
      {error && <Alert>{error}</Alert>}
      <Panel aria-labelledby="apps-admin-title">
        <VisuallyHidden as="h2" id="apps-admin-title">
          {TEXT_ADMIN.apps}
        </VisuallyHidden>
        {!apps && !error && <Spinner label={TEXT.loadingApps} />}
        {apps && apps.data.length === 0 && <p>{TEXT.noApps}</p>}
        {apps && apps.data.length > 0 && (
          <List>
            {apps.data.map((app) => (
              <li key={app.id}>
                <AppIcon app={app} />
                <div>
                  <h2>{app.nombre}</h2>
                  <p>{app.descripcion}</p>
                  <div className="flags">
                    {TEXT_APPS.web}: {app.isEnabledWeb ? TEXT_APPS.yes : TEXT_APPS.no} · {TEXT_APPS.mobile}:{' '}
                    {app.isEnabledMovil ? TEXT_APPS.yes : TEXT_APPS.no}
                  </div>
                </div>
                <div className="actions">
                  <Button
                    $variant="secondary"
                    aria-label={TEXT_ROLES.rolesOf(app.nombre)}
                    aria-expanded={rolesOpen.has(app.id)}
                    aria-controls={`panel-roles-app-${app.id}`}
                    onClick={() => toggleRoles(app.id)}
                  >
                    {TEXT_ROLES.roles}
                  </Button>
                  <Button
                    $variant="secondary"
                    onClick={() => setEditing({ kind: 'edit', app })}
                    aria-label={TEXT_APPS.editApp(app.nombre)}
                  >
                    {TEXT_ADMIN.edit}
                  </Button>
                </div>
                {rolesOpen.has(app.id) && <AppRolesPanel app={app} />}
              </li>
            ))}
          </List>
        )}
        <ListFooter
          id="apps-page-size"
          sizeLabel={TEXT_APPS.appsPageSize}
          limit={limit}
          onLimit={(next) => {
            setLimit(next);
            setPage(1);
          }}
          page={page}
          totalPages={apps?.totalPages ?? 0}
          onPage={setPage}
        />
      </Panel>
      <ConnectedAppsSection />
      {editing?.kind === 'create' && (
        <AppFormDialog title={TEXT_APPS.newApp} initial={emptyAppForm} onSubmit={create} onClose={close} />
      )}
      {editing?.kind === 'edit' && (
        <AppFormDialog
          title={TEXT_APPS.editApp(editing.app.nombre)}
          initial={appToForm(editing.app)}
          onSubmit={update(editing.app)}
          onClose={close}
        />
      )}
    </AdminPage>
  );
}
