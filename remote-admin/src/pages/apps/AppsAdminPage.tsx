import { useCallback, useEffect, useState } from 'react';
import styled from 'styled-components';
import {
  Alert,
  AppIcon,
  Button,
  errorMessage,
  withFieldLabels,
  FALLBACK,
  listApps,
  Modal,
  Spinner,
  TEXT,
  TextField,
  theme,
  type App,
  type Paged,
  useTimedMessage,
  VisuallyHidden,
} from '@portal/shared';
import { ADMIN_ALERT_MS } from '../../model/texts';
import { createApp, updateApp } from '../../api/admin';
import { AdminPage, Panel } from '../../components/Page';
import { ListFooter } from '../../components/Pagination';
import { clampPage } from '../../model/pagination';
import { TEXT_ADMIN } from '../../texts';
import { appToForm, emptyAppForm, formToInput, validateAppForm, type AppForm } from './app-form';

/**
 * Spec §7, §9: after an update the list is reloaded with page 1, limit 10. Ten is also the page size the page opens
 * with; the sizes to choose from and the page numbers are the users table's (issue 17).
 */
const APPS_PAGE_SIZE = 10;

const Head = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  align-items: center;
  gap: 12px;
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
  @media (max-width: ${theme.breakpoint.mobile}) {
    li { grid-template-columns: 40px 1fr; }
    li > button { grid-column: 1 / -1; }
  }
`;

const Form = styled.form`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(240px, 1fr));
  gap: 14px;
  .wide { grid-column: 1 / -1; }
  .check { display: flex; align-items: center; gap: 8px; min-height: 44px; font-weight: 600; }
  .check input { width: 20px; height: 20px; }
  .actions { grid-column: 1 / -1; display: flex; gap: 12px; justify-content: flex-end; }
`;

function AppFormDialog({
  title,
  initial,
  onSubmit,
  onClose,
}: {
  title: string;
  initial: AppForm;
  onSubmit(form: AppForm): Promise<void>;
  onClose(): void;
}) {
  const [form, setForm] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof AppForm>(key: K, value: AppForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const invalid = validateAppForm(form);
    if (invalid) {
      setError(invalid);
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await onSubmit(form);
    } catch (failure) {
      setError(failure instanceof Error ? withFieldLabels(failure.message, APP_FIELD_LABELS) : String(failure));
      setSaving(false);
    }
  };

  const text = (
    key: 'nombre' | 'descripcion' | 'iconUrl' | 'webUrl' | 'iosUrl' | 'androidUrl' | 'tags',
    label: string,
    wide = false,
  ) => (
    <div className={wide ? 'wide' : undefined}>
      <TextField label={label} value={form[key]} onChange={(event) => set(key, event.target.value)} disabled={saving} />
    </div>
  );

  return (
    <Modal title={title} onClose={onClose}>
      <Form onSubmit={submit} noValidate>
        {error && (
          <div className="wide">
            <Alert>{error}</Alert>
          </div>
        )}
        {text('nombre', TEXT_ADMIN.name, true)}
        {text('descripcion', TEXT_ADMIN.description, true)}
        <div className="wide">
          <TextField
            label={TEXT_ADMIN.longDescription}
            value={form.longDescription}
            onChange={(event) => set('longDescription', event.target.value)}
            disabled={saving}
          />
        </div>
        {text('iconUrl', TEXT_ADMIN.iconUrl)}
        {text('webUrl', TEXT_ADMIN.webUrl)}
        {text('iosUrl', TEXT_ADMIN.iosUrl)}
        {text('androidUrl', TEXT_ADMIN.androidUrl)}
        <label className="check">
          <input
            type="checkbox"
            checked={form.isEnabledWeb}
            onChange={(event) => set('isEnabledWeb', event.target.checked)}
            disabled={saving}
          />
          {TEXT_ADMIN.enabledWeb}
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={form.isEnabledMovil}
            onChange={(event) => set('isEnabledMovil', event.target.checked)}
            disabled={saving}
          />
          {TEXT_ADMIN.enabledMobile}
        </label>
        {text('tags', TEXT_ADMIN.tags, true)}
        <div className="actions">
          <Button $variant="secondary" onClick={onClose} disabled={saving}>
            {TEXT_ADMIN.cancel}
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? TEXT_ADMIN.saving : TEXT_ADMIN.save}
          </Button>
        </div>
      </Form>
    </Modal>
  );
}

function appended(list: Paged<App>, app: App, limit: number): Paged<App> {
  const total = list.total + 1;
  const totalPages = Math.ceil(total / limit);
  return {
    ...list,
    data: [...list.data, app],
    total,
    totalPages,
    count: list.count + 1,
    hasNextPage: list.currentPage < totalPages,
  };
}

type Editing = { kind: 'create' } | { kind: 'edit'; app: App } | null;

/** The apps of the catalogue, with edit and create (spec §2: the page whose placeholder read 'Pagina de apps'). */
/** The form's labels for the API's field names, so that a refusal names what the person sees. */
const APP_FIELD_LABELS = {
  nombre: TEXT_ADMIN.name,
  descripcion: TEXT_ADMIN.description,
  longDescription: TEXT_ADMIN.longDescription,
  iconUrl: TEXT_ADMIN.iconUrl,
  webUrl: TEXT_ADMIN.webUrl,
  iosUrl: TEXT_ADMIN.iosUrl,
  androidUrl: TEXT_ADMIN.androidUrl,
  tags: 'Etiquetas',
} as const;

export default function AppsAdminPage() {
  const [apps, setApps] = useState<Paged<App> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [alert, showAlert] = useTimedMessage(ADMIN_ALERT_MS);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(APPS_PAGE_SIZE);
  const [reloads, setReloads] = useState(0);

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
    showAlert({ tone: 'success', text: TEXT_ADMIN.appCreated });
  };

  const update = (app: App) => async (form: AppForm) => {
    await updateApp(app.id, formToInput(form));
    setEditing(null);
    showAlert({ tone: 'success', text: TEXT_ADMIN.appUpdated });
    reloadFirstPage();
  };

  return (
    <AdminPage>
      <Head>
        <h1>{TEXT_ADMIN.appsTitle}</h1>
        <Button onClick={() => setEditing({ kind: 'create' })}>{TEXT_ADMIN.newApp}</Button>
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
                    {TEXT_ADMIN.web}: {app.isEnabledWeb ? TEXT_ADMIN.yes : TEXT_ADMIN.no} · {TEXT_ADMIN.mobile}:{' '}
                    {app.isEnabledMovil ? TEXT_ADMIN.yes : TEXT_ADMIN.no}
                  </div>
                </div>
                <Button
                  $variant="secondary"
                  onClick={() => setEditing({ kind: 'edit', app })}
                  aria-label={TEXT_ADMIN.editApp(app.nombre)}
                >
                  {TEXT_ADMIN.edit}
                </Button>
              </li>
            ))}
          </List>
        )}
        <ListFooter
          id="apps-page-size"
          sizeLabel={TEXT_ADMIN.appsPageSize}
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
      {editing?.kind === 'create' && (
        <AppFormDialog title={TEXT_ADMIN.newApp} initial={emptyAppForm} onSubmit={create} onClose={close} />
      )}
      {editing?.kind === 'edit' && (
        <AppFormDialog
          title={TEXT_ADMIN.editApp(editing.app.nombre)}
          initial={appToForm(editing.app)}
          onSubmit={update(editing.app)}
          onClose={close}
        />
      )}
    </AdminPage>
  );
}
