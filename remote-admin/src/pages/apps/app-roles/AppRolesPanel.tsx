import { useCallback, useState } from 'react';
import styled from 'styled-components';
import { Alert, type App, type AppRole, Button, errorMessage, theme, useTimedMessage } from '@portal/shared';
import { createAppRole, deleteAppRole, listAppRoles, updateAppRole } from '../../../api/admin';
import { ADMIN_FALLBACK } from '../../../api/texts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { FormDialog, FormText } from '../../../components/FormDialog';
import { LoadState } from '../../../components/LoadState';
import { StackedTable } from '../../../components/StackedTable';
import { StatusPill } from '../../../components/StatusPill';
import { useLoad } from '../../../hooks/useLoad';
import { ADMIN_ALERT_MS, TEXT_ADMIN } from '../../../texts';
import { SectionHead } from '../partner-events/SectionHead';
import {
  type AppRoleForm,
  emptyAppRoleForm,
  newRoleInput,
  renameInput,
  roleToForm,
  validateNewRole,
  validateRoleName,
} from './app-role-form';
import { TEXT_ROLES } from './texts';

const Area = styled.section`
  grid-column: 1 / -1;
  padding: 14px;
  border-radius: ${theme.radius};
  background: ${theme.color.background};
  > p { margin: 4px 0 12px; color: ${theme.color.text}; }
  code { overflow-wrap: anywhere; }
`;

/** The form's labels for the API's field names, so that a refusal names what the person sees. */
const ROLE_FIELD_LABELS = {
  clave: TEXT_ROLES.roleKey,
  nombre: TEXT_ADMIN.name,
  descripcion: TEXT_ROLES.roleDescription,
} as const;

type Dialog = { kind: 'create' } | { kind: 'rename'; role: AppRole } | { kind: 'delete'; role: AppRole } | null;

/**
 * 'Roles' of a catalogue app, under its row (docs/decisions/0134-app-roles.md): its roles with name, key and whether
 * it is the default; a new role, a rename, the default given or taken, and a deletion after saying what it does.
 */
export function AppRolesPanel({ app }: { app: Pick<App, 'id' | 'nombre'> }) {
  const roles = useLoad(() => listAppRoles(app.id), ADMIN_FALLBACK.appRoles, [app.id]);
  const [alert, showAlert] = useTimedMessage(ADMIN_ALERT_MS);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const close = useCallback(() => setDialog(null), []);
  const titleId = `roles-app-${app.id}`;

  const done = (text: string) => {
    setDialog(null);
    showAlert({ tone: 'success', text });
    roles.reload();
  };

  const create = async (form: AppRoleForm) => {
    const created = await createAppRole(app.id, newRoleInput(form));
    done(TEXT_ROLES.roleCreated(created.nombre));
  };

  const rename = (role: AppRole) => async (form: AppRoleForm) => {
    const saved = await updateAppRole(app.id, role.clave, renameInput(form));
    done(TEXT_ROLES.roleRenamed(saved.nombre));
  };

  const setDefault = async (role: AppRole, porDefecto: boolean) => {
    setBusy(role.clave);
    try {
      await updateAppRole(app.id, role.clave, { porDefecto });
      done(porDefecto ? TEXT_ROLES.roleMadeDefault(role.nombre) : TEXT_ROLES.roleUnsetDefault(role.nombre));
    } catch (failure) {
      showAlert({ tone: 'error', text: errorMessage(failure, ADMIN_FALLBACK.saveAppRole) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Area aria-labelledby={titleId} id={`panel-${titleId}`}>
      <SectionHead level={3} id={titleId} title={TEXT_ROLES.rolesOf(app.nombre)}>
        <Button aria-label={TEXT_ROLES.newRoleOf(app.nombre)} onClick={() => setDialog({ kind: 'create' })}>
          {TEXT_ROLES.newRole}
        </Button>
      </SectionHead>
      <p>{TEXT_ROLES.rolesIntro}</p>
      {alert && (
        <Alert tone={alert.tone} holdsLostFocus>
          {alert.text}
        </Alert>
      )}
      <LoadState state={roles} loading={TEXT_ROLES.loadingRoles} empty={TEXT_ROLES.noRoles}>
        {(list) => (
          <StackedTable
            aria-label={TEXT_ROLES.rolesTable(app.nombre)}
            columns={[TEXT_ADMIN.name, TEXT_ROLES.roleKey, TEXT_ROLES.roleDefault, TEXT_ROLES.colActions]}
          >
            {list.map((role) => (
              <tr key={role.clave}>
                <td className="lead">
                  {role.nombre}
                  {role.descripcion && <span className="sub">{role.descripcion}</span>}
                </td>
                <td className="token" data-label={TEXT_ROLES.roleKey}>
                  <code>{role.clave}</code>
                </td>
                <td data-label={TEXT_ROLES.roleDefault}>
                  {role.porDefecto ? <StatusPill $tone="ok">{TEXT_ROLES.isDefault}</StatusPill> : TEXT_ROLES.notDefault}
                </td>
                <td className="actions">
                  <Button
                    $variant="secondary"
                    aria-label={TEXT_ROLES.renameRoleOf(role.nombre)}
                    onClick={() => setDialog({ kind: 'rename', role })}
                  >
                    {TEXT_ROLES.renameRole}
                  </Button>
                  <Button
                    $variant="secondary"
                    // Busy, the button stays focusable (a disabled one drops the focus to the page): clicks wait.
                    aria-disabled={busy !== null || undefined}
                    aria-label={
                      role.porDefecto ? TEXT_ROLES.unsetDefaultOf(role.nombre) : TEXT_ROLES.makeDefaultOf(role.nombre)
                    }
                    onClick={() => busy === null && void setDefault(role, !role.porDefecto)}
                  >
                    {role.porDefecto ? TEXT_ROLES.unsetDefault : TEXT_ROLES.makeDefault}
                  </Button>
                  <Button
                    $variant="danger"
                    aria-label={TEXT_ROLES.deleteRoleOf(role.nombre)}
                    onClick={() => setDialog({ kind: 'delete', role })}
                  >
                    {TEXT_ROLES.deleteRole}
                  </Button>
                </td>
              </tr>
            ))}
          </StackedTable>
        )}
      </LoadState>
      {dialog?.kind === 'create' && (
        <FormDialog<AppRoleForm>
          title={TEXT_ROLES.newRoleOf(app.nombre)}
          initial={emptyAppRoleForm}
          validate={validateNewRole}
          labels={ROLE_FIELD_LABELS}
          onSubmit={create}
          onClose={close}
        >
          {({ bind }) => (
            <>
              <FormText label={TEXT_ROLES.roleKey} hint={TEXT_ROLES.roleKeyHint} {...bind('clave')} />
              <FormText label={TEXT_ADMIN.name} {...bind('nombre')} />
              <FormText label={TEXT_ROLES.roleDescription} wide {...bind('descripcion')} />
            </>
          )}
        </FormDialog>
      )}
      {dialog?.kind === 'rename' && (
        <FormDialog<AppRoleForm>
          title={TEXT_ROLES.renameRoleTitle(dialog.role.nombre)}
          initial={roleToForm(dialog.role)}
          validate={validateRoleName}
          labels={ROLE_FIELD_LABELS}
          onSubmit={rename(dialog.role)}
          onClose={close}
        >
          {({ bind }) => (
            <>
              <FormText label={TEXT_ADMIN.name} wide {...bind('nombre')} />
              <FormText label={TEXT_ROLES.roleDescription} wide {...bind('descripcion')} />
            </>
          )}
        </FormDialog>
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title={TEXT_ROLES.deleteRoleTitle(dialog.role.nombre, app.nombre)}
          text={TEXT_ROLES.deleteRoleText(dialog.role.clave, dialog.role.porDefecto)}
          confirmLabel={TEXT_ROLES.deleteRole}
          fallback={ADMIN_FALLBACK.deleteAppRole}
          onClose={close}
          onConfirm={async () => {
            await deleteAppRole(app.id, dialog.role.clave);
            done(TEXT_ROLES.roleDeleted(dialog.role.nombre));
          }}
        />
      )}
    </Area>
  );
}
