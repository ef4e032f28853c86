import { Button, Modal } from '@portal/shared';
import { setMemberAppRoles } from '../../api/companies';
import type { MemberAppRoles } from '../../api/company-types';
import { CheckField, FormDialog } from '../../components/FormDialog';
import { TEXT_ADMIN } from '../../texts';
import { TEXT_COMPANY } from './texts';

/** The roles checked in each app, by app id. */
type RolesForm = { roles: Record<number, string[]> };

const toggled = (roles: string[], clave: string, on: boolean) =>
  on ? [...new Set([...roles, clave])] : roles.filter((key) => key !== clave);

/** The keys checked, in the app's order: what is sent, and what is compared with what the company gave. */
const checkedOf = (entry: MemberAppRoles, form: RolesForm) =>
  entry.disponibles.map((role) => role.clave).filter((clave) => (form.roles[entry.idApp] ?? []).includes(clave));

const changed = (entry: MemberAppRoles, form: RolesForm) =>
  checkedOf(entry, form).join(' ') !== [...entry.roles].sort().join(' ');

/**
 * The roles the company gives a member in the apps whose seats they hold (`entries`, read as the dialog opens: one
 * app from a seat's row, every app from the member's row; none when the seat is gone): one box per role each app has,
 * the ones given checked; saving sends, for each app whose boxes changed, exactly the checked ones. A role a directory
 * group gives is shown checked and fixed: it goes when the person leaves the group.
 */
export function SeatRolesDialog({
  companyId,
  userId,
  title,
  entries,
  gone,
  onClose,
  onSaved,
}: {
  companyId: number;
  userId: number;
  title: string;
  entries: MemberAppRoles[];
  /** What the dialog says when `entries` is empty. */
  gone: string;
  onClose(): void;
  onSaved(): void;
}) {
  const withRoles = entries.filter((entry) => entry.disponibles.length > 0);
  if (withRoles.length === 0)
    return (
      <Modal title={title} onClose={onClose}>
        <p>{entries.length === 0 ? gone : entries.length === 1 ? TEXT_COMPANY.noAppRoles : TEXT_COMPANY.noAppsRoles}</p>
        <Button $variant="secondary" onClick={onClose}>
          {TEXT_ADMIN.close}
        </Button>
      </Modal>
    );

  return (
    <FormDialog<RolesForm>
      title={title}
      initial={{ roles: Object.fromEntries(entries.map((entry) => [entry.idApp, entry.roles])) }}
      labels={{ roles: TEXT_COMPANY.seatRolesLegend }}
      validate={() => null}
      onSubmit={async (form) => {
        for (const entry of withRoles)
          if (changed(entry, form)) await setMemberAppRoles(companyId, userId, entry.idApp, checkedOf(entry, form));
        onSaved();
      }}
      onClose={onClose}
    >
      {({ form, set, saving }) => (
        <>
          <p className="note wide">{TEXT_COMPANY.seatRolesHint}</p>
          {withRoles.some((entry) => entry.rolesGrupo.length > 0) && (
            <p className="note wide">{TEXT_COMPANY.groupRolesHint}</p>
          )}
          {withRoles.length < entries.length && (
            <p className="note wide">
              {TEXT_COMPANY.appsWithoutRoles(
                entries
                  .filter((entry) => entry.disponibles.length === 0)
                  .map((entry) => entry.nombreApp)
                  .join(', '),
              )}
            </p>
          )}
          {withRoles.map((entry) => (
            <fieldset className="wide" key={entry.idApp}>
              <legend>{TEXT_COMPANY.rolesInApp(entry.nombreApp)}</legend>
              {entry.disponibles.map((role) =>
                entry.rolesGrupo.includes(role.clave) ? (
                  <CheckField
                    key={role.clave}
                    label={TEXT_COMPANY.groupRoleOption(role.nombre, role.clave)}
                    value
                    onChange={() => {}}
                    disabled
                  />
                ) : (
                  <CheckField
                    key={role.clave}
                    label={TEXT_COMPANY.roleOption(role.nombre, role.clave)}
                    value={(form.roles[entry.idApp] ?? []).includes(role.clave)}
                    onChange={(on) =>
                      set('roles', {
                        ...form.roles,
                        [entry.idApp]: toggled(form.roles[entry.idApp] ?? [], role.clave, on),
                      })
                    }
                    disabled={saving}
                  />
                ),
              )}
            </fieldset>
          ))}
        </>
      )}
    </FormDialog>
  );
}
