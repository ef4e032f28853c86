import styled from 'styled-components';
import {
  Button, displayName, formatRegistrationDate, roleLabel, statusLabel, theme, type AdminUser,
} from '@portal/shared';
import { VisuallyHidden } from '../../components/VisuallyHidden';
import { TEXT_ADMIN } from '../../texts';

const Scroll = styled.div`
  overflow-x: auto;
  -webkit-overflow-scrolling: touch;
`;

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  min-width: 820px;
  th, td { padding: 10px 8px; text-align: left; border-bottom: 1px solid ${theme.color.border}; vertical-align: middle; }
  th { font-size: 0.85rem; color: ${theme.color.muted}; font-weight: 700; }
  input[type='checkbox'] { width: 20px; height: 20px; }
`;

const Who = styled.div`
  display: flex;
  align-items: center;
  gap: 10px;
  img, .icon { width: 36px; height: 36px; border-radius: 50%; flex: none; object-fit: cover; }
  .icon {
    display: inline-flex; align-items: center; justify-content: center;
    background: ${theme.color.infoBg}; color: ${theme.color.primary}; font-weight: 700;
  }
  min-width: 240px;
  strong { display: block; }
  span.email { color: ${theme.color.muted}; font-size: 0.9rem; white-space: nowrap; }
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

const RowActions = styled.div`
  display: flex;
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
}

/** The users table of spec §2, plus suspend / reactivate (README: decisions). */
export function UsersTable({ users, selectable, selected, currentUserId, busyId, onToggle, onPlans, onToggleStatus }: UsersTableProps) {
  return (
    // Focusable, so that keyboard users can scroll it sideways on small screens.
    <Scroll tabIndex={0} role="group" aria-label={TEXT_ADMIN.usersTable}>
      <Table>
        <thead>
          <tr>
            <th scope="col"><VisuallyHidden>{TEXT_ADMIN.colSelect}</VisuallyHidden></th>
            <th scope="col">{TEXT_ADMIN.colUser}</th>
            <th scope="col">{TEXT_ADMIN.colRole}</th>
            <th scope="col">{TEXT_ADMIN.colStatus}</th>
            <th scope="col">{TEXT_ADMIN.colCreated}</th>
            <th scope="col">{TEXT_ADMIN.colPlans}</th>
            <th scope="col">{TEXT_ADMIN.colActions}</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => {
            const name = displayName(user);
            const canToggle = (user.status === 'active' || user.status === 'suspended') && user.id !== currentUserId;
            return (
              <tr key={user.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={TEXT_ADMIN.selectUser(user.email)}
                    disabled={!selectable}
                    checked={selectable && selected.has(user.id)}
                    onChange={() => onToggle(user.id)}
                  />
                </td>
                <td>
                  <Who>
                    {user.picture ? <img src={user.picture} alt="" /> : <span className="icon" aria-hidden="true">{name.charAt(0).toUpperCase()}</span>}
                    <div>
                      <strong>{[user.name, user.lastName].filter(Boolean).join(' ')}</strong>
                      <span className="email">{user.email}</span>
                    </div>
                  </Who>
                </td>
                <td>{roleLabel(user.role)}</td>
                <td><Status $status={user.status}>{statusLabel(user.status)}</Status></td>
                <td>{formatRegistrationDate(user.createdAt)}</td>
                <td>
                  <RowActions>
                    <Button $variant="secondary" onClick={() => onPlans(user)} aria-label={`${TEXT_ADMIN.plans} de ${user.email}`}>
                      {TEXT_ADMIN.plans}
                    </Button>
                  </RowActions>
                </td>
                <td>
                  <RowActions>
                    {canToggle && (
                      <Button
                        $variant={user.status === 'active' ? 'danger' : 'secondary'}
                        disabled={busyId === user.id}
                        onClick={() => onToggleStatus(user)}
                        aria-label={`${user.status === 'active' ? TEXT_ADMIN.suspend : TEXT_ADMIN.reactivate} a ${user.email}`}
                      >
                        {user.status === 'active' ? TEXT_ADMIN.suspend : TEXT_ADMIN.reactivate}
                      </Button>
                    )}
                  </RowActions>
                </td>
              </tr>
            );
          })}
        </tbody>
      </Table>
    </Scroll>
  );
}
