import { useCallback, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, errorMessage, Modal, theme, useSubmit } from '@portal/shared';
import {
  approveMember,
  assignSeat,
  changeMemberRole,
  listMembers,
  memberAppRoles,
  removeMember,
  takeBackSeat,
} from '../../api/companies';
import type { CompanyRole, Licence, Member, MemberAppRoles } from '../../api/company-types';
import { COMPANY_FALLBACK } from '../../api/texts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LoadMore, useCursorList } from '../../components/CursorList';
import { LoadState } from '../../components/LoadState';
import { DialogActions, Panel } from '../../components/Page';
import { StackedTable } from '../../components/StackedTable';
import { StatusPill } from '../../components/StatusPill';
import {
  companyRoleLabel,
  grantableRoles,
  mayManageMember,
  memberName,
  memberStatusLabel,
} from '../../rules/companies';
import { formatRegistrationDate } from '../../rules/format';
import { MoreSeatsHelp } from './MoreSeatsHelp';
import { SearchFilter } from './SearchFilter';
import { SeatRolesDialog } from './SeatRolesDialog';
import { SectionHead, type SectionProps } from './SectionParts';
import { TEXT_COMPANY } from './texts';

/** Members per request: the API's default page of a cursor list. */
export const MEMBERS_PAGE = 50;

const RoleSelect = styled.select`
  min-height: 36px;
  border: 1px solid ${theme.color.border};
  border-radius: 8px;
  padding: 0 8px;
  font: inherit;
  background: ${theme.color.surface};
`;

type Dialog =
  | { kind: 'remove'; member: Member }
  | { kind: 'seats'; member: Member }
  | { kind: 'roles'; member: Member; entries: MemberAppRoles[] }
  | null;

/**
 * The company's members, 50 at a time ('Cargar más' follows the API's cursor), filtered by email: role, removal,
 * approval of a domain join waiting, and each member's seats.
 */
export function MembersSection({
  companyId,
  companyName,
  viewer,
  announce,
  onMembers,
  licences,
  onSeats,
}: SectionProps & { licences: Licence[]; onSeats(): void }) {
  const [email, setEmail] = useState('');
  const members = useCursorList(
    (cursor) => listMembers(companyId, { email, cursor, limit: MEMBERS_PAGE }),
    COMPANY_FALLBACK.members,
    [companyId, email],
  );
  const [dialog, setDialog] = useState<Dialog>(null);
  const [rowError, setRowError] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [openingRoles, setOpeningRoles] = useState<number | null>(null);

  const replace = (member: Member) =>
    members.setData(
      (current) =>
        current && {
          ...current,
          data: current.data.map((m) => (m.idUsuario === member.idUsuario ? member : m)),
        },
    );

  const act = async (member: Member, call: () => Promise<Member>, done: (updated: Member) => string) => {
    setBusyId(member.idUsuario);
    setRowError(null);
    try {
      const updated = await call();
      replace(updated);
      announce(done(updated));
      if (updated.estado !== member.estado) onMembers();
    } catch (failure) {
      setRowError(errorMessage(failure, COMPANY_FALLBACK.member));
    } finally {
      setBusyId(null);
    }
  };

  const close = useCallback(() => setDialog(null), []);

  /** The member's roles in every app whose seat they hold are read first, so the dialog opens with them. */
  const openRoles = async (member: Member) => {
    setOpeningRoles(member.idUsuario);
    setRowError(null);
    try {
      setDialog({ kind: 'roles', member, entries: await memberAppRoles(companyId, member.idUsuario) });
    } catch (failure) {
      setRowError(errorMessage(failure, COMPANY_FALLBACK.roles));
    } finally {
      setOpeningRoles(null);
    }
  };
  const roles = grantableRoles(viewer);
  const appName = (id: number) => licences.find((l) => l.app.id === id)?.app.nombre ?? `App ${id}`;

  return (
    <Panel aria-labelledby="members-title">
      <SectionHead>
        <h2 id="members-title">{TEXT_COMPANY.members}</h2>
      </SectionHead>
      <SearchFilter
        id="member-email-filter"
        type="search"
        label={TEXT_COMPANY.emailFilter}
        placeholder={TEXT_COMPANY.emailPlaceholder}
        onSearch={setEmail}
      />
      {rowError && <Alert>{rowError}</Alert>}
      <LoadState
        state={members}
        loading={TEXT_COMPANY.loadingMembers}
        empty={email ? TEXT_COMPANY.noMembers : TEXT_COMPANY.noMembersYet}
      >
        {(page) => (
          <>
            <StackedTable
              aria-label={TEXT_COMPANY.membersTable}
              columns={[
                TEXT_COMPANY.colMember,
                TEXT_COMPANY.colRole,
                TEXT_COMPANY.colMemberStatus,
                TEXT_COMPANY.colSeats,
                TEXT_COMPANY.colSince,
                TEXT_COMPANY.colActions,
              ]}
            >
              {page.data.map((member) => {
                const manageable = mayManageMember(viewer, member);
                const busy = busyId === member.idUsuario;
                return (
                  <tr key={member.idUsuario}>
                    <td className="lead">
                      {memberName(member)}
                      {memberName(member) !== member.email && <span className="sub">{member.email}</span>}
                      <span className="sub">
                        {member.segundoFactor ? TEXT_COMPANY.withSecondFactor : TEXT_COMPANY.withoutSecondFactor}
                      </span>
                    </td>
                    <td data-label={TEXT_COMPANY.colRole}>
                      {manageable ? (
                        <RoleSelect
                          aria-label={TEXT_COMPANY.roleOf(member.email)}
                          value={member.rol}
                          disabled={busy}
                          onChange={(event) => {
                            const rol = event.target.value as CompanyRole;
                            void act(
                              member,
                              () => changeMemberRole(companyId, member.idUsuario, rol),
                              (updated) => TEXT_COMPANY.roleChanged(updated.email, companyRoleLabel(updated.rol)),
                            );
                          }}
                        >
                          {(roles.includes(member.rol) ? roles : [member.rol, ...roles]).map((role) => (
                            <option key={role} value={role}>
                              {companyRoleLabel(role)}
                            </option>
                          ))}
                        </RoleSelect>
                      ) : (
                        companyRoleLabel(member.rol)
                      )}
                    </td>
                    <td data-label={TEXT_COMPANY.colMemberStatus}>
                      <StatusPill $tone={member.estado === 'activo' ? 'ok' : 'warning'}>
                        {memberStatusLabel(member.estado)}
                      </StatusPill>
                    </td>
                    <td data-label={TEXT_COMPANY.colSeats}>
                      {member.puestos.length ? member.puestos.map(appName).join(', ') : TEXT_COMPANY.noSeats}
                    </td>
                    <td className="nowrap" data-label={TEXT_COMPANY.colSince}>
                      {formatRegistrationDate(member.desde)}
                    </td>
                    <td className="actions">
                      {member.estado === 'pendiente' && (
                        <Button
                          disabled={busy}
                          aria-label={TEXT_COMPANY.approveOf(member.email)}
                          onClick={() =>
                            void act(
                              member,
                              () => approveMember(companyId, member.idUsuario),
                              (updated) => TEXT_COMPANY.memberApproved(updated.email),
                            )
                          }
                        >
                          {TEXT_COMPANY.approve}
                        </Button>
                      )}
                      {member.estado === 'activo' && (
                        <Button
                          $variant="secondary"
                          aria-label={TEXT_COMPANY.manageSeatsOf(member.email)}
                          onClick={() => setDialog({ kind: 'seats', member })}
                        >
                          {TEXT_COMPANY.manageSeats}
                        </Button>
                      )}
                      {member.estado === 'activo' && member.puestos.length > 0 && (
                        <Button
                          $variant="secondary"
                          aria-label={TEXT_COMPANY.memberRolesOf(member.email)}
                          // While the roles are read the button stays focusable, so the dialog gives the focus back.
                          aria-disabled={openingRoles !== null || undefined}
                          onClick={() => openingRoles === null && void openRoles(member)}
                        >
                          {TEXT_COMPANY.memberRoles}
                        </Button>
                      )}
                      {manageable && (
                        <Button
                          $variant="danger"
                          disabled={busy}
                          aria-label={TEXT_COMPANY.removeOf(member.email)}
                          onClick={() => setDialog({ kind: 'remove', member })}
                        >
                          {TEXT_COMPANY.remove}
                        </Button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </StackedTable>
            <LoadMore
              shown={TEXT_COMPANY.membersShown(page.data.length, page.total)}
              more={Boolean(page.siguiente)}
              busy={members.loadingMore}
              onMore={() => void members.loadMore()}
            />
          </>
        )}
      </LoadState>
      {dialog?.kind === 'remove' && (
        <ConfirmDialog
          title={TEXT_COMPANY.removeTitle(dialog.member.email)}
          text={TEXT_COMPANY.removeText}
          confirmLabel={TEXT_COMPANY.remove}
          fallback={COMPANY_FALLBACK.member}
          onClose={close}
          onConfirm={async () => {
            await removeMember(companyId, dialog.member.idUsuario);
            setDialog(null);
            members.setData(
              (current) =>
                current && {
                  ...current,
                  total: current.total - 1,
                  data: current.data.filter((m) => m.idUsuario !== dialog.member.idUsuario),
                },
            );
            announce(TEXT_COMPANY.memberRemoved(dialog.member.email));
            onMembers();
            if (dialog.member.puestos.length) onSeats();
          }}
        />
      )}
      {dialog?.kind === 'roles' && (
        <SeatRolesDialog
          companyId={companyId}
          userId={dialog.member.idUsuario}
          title={TEXT_COMPANY.memberRolesTitle(memberName(dialog.member))}
          entries={dialog.entries}
          gone={TEXT_COMPANY.seatsGone}
          onClose={close}
          onSaved={() => {
            setDialog(null);
            announce(TEXT_COMPANY.memberRolesSaved(dialog.member.email));
          }}
        />
      )}
      {dialog?.kind === 'seats' && (
        <MemberSeatsDialog
          companyId={companyId}
          companyName={companyName}
          platform={viewer.platform}
          member={dialog.member}
          licences={licences}
          onClose={close}
          onChanged={(member, text) => {
            replace(member);
            setDialog({ kind: 'seats', member });
            announce(text);
            onSeats();
          }}
        />
      )}
    </Panel>
  );
}

const SeatList = styled.ul`
  list-style: none;
  margin: 0 0 16px;
  padding: 0;
  li {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 8px 12px;
    padding: 10px 0;
    border-bottom: 1px solid ${theme.color.border};
  }
  strong { display: block; }
  span { color: ${theme.color.muted}; font-size: 0.9rem; }
`;

/** Why 'Asignar' is greyed out, on a line of its own under the licence. */
const Full = styled.p`
  flex-basis: 100%;
  margin: 0;
  color: ${theme.color.text};
  font-size: 0.9rem;
`;

/**
 * One member's seats: each licence of the company with 'Asignar' or 'Quitar puesto'. With no seat left 'Asignar' is
 * greyed out, saying why and what to do (take one back, or ask for more); any other refusal (an expired licence, a seat
 * taken meanwhile) stays in the dialog in the API's words.
 */
function MemberSeatsDialog({
  companyId,
  companyName,
  platform,
  member,
  licences,
  onClose,
  onChanged,
}: {
  companyId: number;
  companyName: string;
  platform: boolean;
  member: Member;
  licences: Licence[];
  onClose(): void;
  onChanged(member: Member, text: string): void;
}) {
  const { busy, message, submit } = useSubmit();
  const toggle = (licence: Licence) => {
    const holds = member.puestos.includes(licence.app.id);
    void submit({
      afterSuccess: 'ready',
      call: async () => {
        if (holds) await takeBackSeat(companyId, member.idUsuario, licence.app.id);
        else await assignSeat(companyId, member.idUsuario, licence.app.id);
      },
      success: () => {
        const text = holds
          ? TEXT_COMPANY.seatTakenBack(licence.app.nombre)
          : TEXT_COMPANY.seatAssigned(licence.app.nombre);
        const puestos = holds
          ? member.puestos.filter((id) => id !== licence.app.id)
          : [...member.puestos, licence.app.id];
        onChanged({ ...member, puestos }, text);
        return text;
      },
      failure: (caught) => errorMessage(caught, COMPANY_FALLBACK.seat),
    });
  };
  return (
    <Modal title={TEXT_COMPANY.seatsOfTitle(memberName(member))} width="560px" onClose={() => !busy && onClose()}>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      {licences.length === 0 ? (
        <p>{TEXT_COMPANY.noLicencesToAssign}</p>
      ) : (
        <SeatList>
          {licences.map((licence) => {
            const holds = member.puestos.includes(licence.app.id);
            const full = !holds && licence.libres <= 0;
            const why = `seats-full-${licence.id}`;
            return (
              <li key={licence.id}>
                <div>
                  <strong>{licence.app.nombre}</strong>
                  <span>
                    {licence.plan.nombre} · {holds ? TEXT_COMPANY.hasSeat : TEXT_COMPANY.noSeat} ·{' '}
                    {TEXT_COMPANY.seatCounts(licence.enUso, licence.puestos, licence.libres)}
                  </span>
                </div>
                <Button
                  $variant={holds ? 'danger' : 'primary'}
                  // Busy, the button stays focusable (a disabled one drops the focus to the page): clicks wait.
                  disabled={full}
                  aria-disabled={busy || undefined}
                  aria-label={
                    holds ? TEXT_COMPANY.takeBackOf(licence.app.nombre) : TEXT_COMPANY.assignOf(licence.app.nombre)
                  }
                  aria-describedby={full ? why : undefined}
                  onClick={() => !busy && toggle(licence)}
                >
                  {holds ? TEXT_COMPANY.takeBack : TEXT_COMPANY.assign}
                </Button>
                {full && (
                  <Full id={why}>
                    {platform
                      ? TEXT_COMPANY.noFreeSeatsPlatform(licence.app.nombre)
                      : TEXT_COMPANY.noFreeSeats(licence.app.nombre)}
                  </Full>
                )}
              </li>
            );
          })}
        </SeatList>
      )}
      {!platform && licences.some((licence) => licence.libres <= 0) && <MoreSeatsHelp company={companyName} />}
      <DialogActions>
        <Button $variant="secondary" onClick={onClose} disabled={busy}>
          {TEXT_COMPANY.close}
        </Button>
      </DialogActions>
    </Modal>
  );
}
