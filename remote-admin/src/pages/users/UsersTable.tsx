import styled from 'styled-components';
import { Button, theme, type AdminUser, VisuallyHidden } from '@portal/shared';
import { Avatar } from '../../components/Avatar';
import { displayName, formatRegistrationDate, roleLabel } from '../../rules/format';
import { statusLabel } from '../../rules/status';
import { TEXT_ADMIN } from '../../texts';
import { TEXT_USERS } from './texts';

// The table fits its box: fixed columns around a flexible 'Usuario' that truncates, so 'Acciones' is always in view.
// Where the box is narrow (a phone, a small window) each user becomes a card: every row a block with its labels.
const Frame = styled.div`
  container-type: inline-size;
`;

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  table-layout: fixed;
  th, td { padding: 10px 8px; text-align: left; border-bottom: 1px solid ${theme.color.border}; vertical-align: middle; }
  th { font-size: 0.85rem; color: ${theme.color.muted}; font-weight: 700; }
  input[type='checkbox'] { width: 20px; height: 20px; }
  col.select { width: 44px; }
  col.role { width: 132px; }
  col.status { width: 150px; }
  col.created { width: 116px; }
  col.plans { width: 108px; }
  col.actions { width: 144px; }
  td[data-label]::before { display: none; }

  @container (max-width: 860px) {
    &, tbody, tr, td { display: block; width: 100%; box-sizing: border-box; }
    colgroup, thead { display: none; }
    tr {
      position: relative;
      margin-bottom: 12px;
      padding: 12px 12px 12px 48px;
      border: 1px solid ${theme.color.border};
      border-radius: ${theme.radius};
      background: ${theme.color.surface};
    }
    td { padding: 4px 0; border: 0; display: flex; align-items: center; gap: 8px; }
    td[data-label]::before {
      display: inline;
      content: attr(data-label);
      flex: 0 0 112px;
      font-size: 0.85rem;
      font-weight: 700;
      color: ${theme.color.muted};
    }
    td.select { position: absolute; left: 12px; top: 14px; width: auto; padding: 0; }
    td.actions { padding-top: 8px; }
  }
`;

const Who = styled.div`
  display: flex;
  align-items: center;
  gap: 10px;
  min-width: 0;
  img, .icon { width: 36px; height: 36px; border-radius: 50%; flex: none; object-fit: cover; }
  .icon {
    display: inline-flex; align-items: center; justify-content: center;
    background: ${theme.color.infoBg}; color: ${theme.color.primary}; font-weight: 700;
  }
  .text { min-width: 0; flex: 1; border-radius: 6px; }
  strong, span.email { display: block; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  span.email { color: ${theme.color.muted}; font-size: 0.9rem; }
  /* The full name and email on hover and on keyboard focus (the 'title' gives the browser's tooltip too). */
  .text:hover strong, .text:hover span.email, .text:focus strong, .text:focus span.email {
    white-space: normal;
    overflow-wrap: anywhere;
  }
  .text:focus-visible { outline: 3px solid ${theme.color.primary}; outline-offset: 2px; }
`;

const Status = styled.span<{ $status: string }>`
  display: inline-block;
  padding: 2px 10px;
  border-radius: 999px;
  font-size: 0.85rem;
  font-weight: 600;
  color: ${(p) => (p.$status === 'active' ? theme.color.success : p.$status === 'suspended' ? theme.color.danger : '#92400e')};
  background: ${(p) => (p.$status === 'active' ? theme.color.successBg : p.$status === 'suspended' ? theme.color.dangerBg : '#fffbeb')};
`;

/** A row's actions ('Editar', 'Sesiones', 'Suspender'/'Reactivar'): they wrap inside the column rather than leave the screen. */
const RowActions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  button { min-height: 36px; padding: 0 12px; }
`;

export interface UsersTableProps {
  users: AdminUser[];
  selectable: boolean;
  selected: ReadonlySet<number>;
  currentUserId: number | undefined;
  busyId: number | null;
  onToggle(id: number): void;
  onPlans(user: AdminUser): void;
  onToggleStatus(user: AdminUser): void;
  /** The user's sessions. */
  onSessions(user: AdminUser): void;
  /** Spec §7 `PUT /auth/editar/{id}`: the edit dialog. */
  onEdit(user: AdminUser): void;
}

/** The users table of spec §2, plus suspend / reactivate (README: decisions). */
export function UsersTable({
  users,
  selectable,
  selected,
  currentUserId,
  busyId,
  onToggle,
  onPlans,
  onToggleStatus,
  onSessions,
  onEdit,
}: UsersTableProps) {
  return (
    <Frame>
      <Table aria-label={TEXT_USERS.usersTable}>
        <colgroup>
          <col className="select" />
          <col className="user" />
          <col className="role" />
          <col className="status" />
          <col className="created" />
          <col className="plans" />
          <col className="actions" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">
              <VisuallyHidden>{TEXT_USERS.colSelect}</VisuallyHidden>
            </th>
            <th scope="col">{TEXT_USERS.colUser}</th>
            <th scope="col">{TEXT_USERS.colRole}</th>
            <th scope="col">{TEXT_USERS.colStatus}</th>
            <th scope="col">{TEXT_USERS.colCreated}</th>
            <th scope="col">{TEXT_USERS.colPlans}</th>
            <th scope="col">{TEXT_USERS.colActions}</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => {
            const name = displayName(user);
            const fullName = [user.name, user.lastName].filter(Boolean).join(' ');
            const canToggle = (user.status === 'active' || user.status === 'suspended') && user.id !== currentUserId;
            return (
              <tr key={user.id}>
                <td className="select">
                  <input
                    type="checkbox"
                    aria-label={TEXT_USERS.selectUser(user.email)}
                    disabled={!selectable}
                    checked={selectable && selected.has(user.id)}
                    onChange={() => onToggle(user.id)}
                  />
                </td>
                <td>
                  <Who>
                    <Avatar picture={user.picture} name={name} letterClass="icon" />
                    {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a name cut to one line is shown whole on keyboard focus, as on hover (sighted keyboard users); screen readers read it whole anyway. */}
                    <div className="text" tabIndex={0} title={[fullName, user.email].filter(Boolean).join('\n')}>
                      <strong>{fullName}</strong>
                      <span className="email">{user.email}</span>
                    </div>
                  </Who>
                </td>
                <td data-label={TEXT_USERS.colRole}>{roleLabel(user.role)}</td>
                <td data-label={TEXT_USERS.colStatus}>
                  <Status $status={user.status}>{statusLabel(user.status)}</Status>
                </td>
                <td data-label={TEXT_USERS.colCreated}>{formatRegistrationDate(user.createdAt)}</td>
                <td className="actions">
                  <RowActions>
                    <Button
                      $variant="secondary"
                      onClick={() => onPlans(user)}
                      aria-label={TEXT_USERS.plansOf(user.email)}
                    >
                      {TEXT_USERS.plans}
                    </Button>
                  </RowActions>
                </td>
                <td className="actions">
                  <RowActions>
                    <Button
                      $variant="secondary"
                      onClick={() => onEdit(user)}
                      aria-label={TEXT_USERS.editUser(user.email)}
                    >
                      {TEXT_ADMIN.edit}
                    </Button>
                    <Button
                      $variant="secondary"
                      onClick={() => onSessions(user)}
                      aria-label={TEXT_USERS.sessionsOf(user.email)}
                    >
                      {TEXT_USERS.sessions}
                    </Button>
                    {canToggle && (
                      <Button
                        $variant={user.status === 'active' ? 'danger' : 'secondary'}
                        disabled={busyId === user.id}
                        onClick={() => onToggleStatus(user)}
                        aria-label={`${user.status === 'active' ? TEXT_USERS.suspend : TEXT_USERS.reactivate} a ${user.email}`}
                      >
                        {user.status === 'active' ? TEXT_USERS.suspend : TEXT_USERS.reactivate}
                      </Button>
                    )}
                  </RowActions>
                </td>
              </tr>
            );
          })}
        </tbody>
      </Table>
    </Frame>
  );
}
