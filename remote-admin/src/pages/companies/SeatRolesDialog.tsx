import { Button, Modal } from '@portal/shared';
import { setMemberAppRoles } from '../../api/companies';
import type { MemberAppRoles, Seat } from '../../api/company-types';
import { CheckField, FormDialog } from '../../components/FormDialog';
import { TEXT_ADMIN } from '../../texts';
import { TEXT_COMPANY } from './texts';

type RolesForm = { roles: string[] };

const toggled = (roles: string[], clave: string, on: boolean) =>
  on ? [...new Set([...roles, clave])] : roles.filter((key) => key !== clave);

/**
 * The roles of an app the company gives a member holding its seat (`entry`, read as the dialog opens; undefined when
 * the seat is gone): one box per role the app has, the ones given checked; saving sends exactly the checked ones. A
 * role a directory group gives is shown checked and fixed: it goes when the person leaves the group.
 */
export function SeatRolesDialog({
  companyId,
  seat,
  entry,
  appName,
  onClose,
  onSaved,
}: {
  companyId: number;
  seat: Seat;
  entry: MemberAppRoles | undefined;
  appName: string;
  onClose(): void;
  onSaved(): void;
}) {
  const title = TEXT_COMPANY.seatRolesTitle(appName, seat.email);
  if (!entry || entry.disponibles.length === 0)
    return (
      <Modal title={title} onClose={onClose}>
        <p>{entry ? TEXT_COMPANY.noAppRoles : TEXT_COMPANY.seatGone}</p>
        <Button $variant="secondary" onClick={onClose}>
          {TEXT_ADMIN.close}
        </Button>
      </Modal>
    );

  const order = entry.disponibles.map((role) => role.clave);
  return (
    <FormDialog<RolesForm>
      title={title}
      initial={{ roles: entry.roles }}
      labels={{ roles: TEXT_COMPANY.seatRolesLegend }}
      validate={() => null}
      onSubmit={async (form) => {
        await setMemberAppRoles(
          companyId,
          seat.idUsuario,
          seat.idApp,
          order.filter((clave) => form.roles.includes(clave)),
        );
        onSaved();
      }}
      onClose={onClose}
    >
      {({ form, set, saving }) => (
        <fieldset className="wide">
          <legend>{TEXT_COMPANY.seatRolesLegend}</legend>
          <p className="note">{TEXT_COMPANY.seatRolesHint}</p>
          {entry.rolesGrupo.length > 0 && <p className="note">{TEXT_COMPANY.groupRolesHint}</p>}
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
                value={form.roles.includes(role.clave)}
                onChange={(on) => set('roles', toggled(form.roles, role.clave, on))}
                disabled={saving}
              />
            ),
          )}
        </fieldset>
      )}
    </FormDialog>
  );
}
