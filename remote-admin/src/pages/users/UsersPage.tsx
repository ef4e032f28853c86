import { useCallback, useEffect, useReducer, useState } from 'react';
import styled from 'styled-components';
import {
  Alert,
  Button,
  errorMessage,
  Input,
  LoadFailed,
  Modal,
  Spinner,
  theme,
  type AdminUser,
  type UserPage,
  type UserStats,
  type UserStatus,
  useSession,
  useTimedMessage,
} from '@portal/shared';
import { changeUserStatus, getUserStats, listUsers, verifyEmails } from '../../api/admin';
import { ADMIN_FALLBACK } from '../../api/texts';
import { AdminPage, DialogActions, FieldLabel, Panel } from '../../components/Page';
import { ListFooter } from '../../components/Pagination';
import { SelectField } from '../../components/SelectField';
import { StatCard, StatGrid } from '../../components/StatCard';
import { administratorsShown } from '../../rules/format';
import { reachablePages } from '../../rules/pagination';
import { STATUS_FILTER_OPTIONS } from '../../rules/status';
import { ADMIN_ALERT_MS, TEXT_ADMIN } from '../../texts';
import { EditUserModal } from './EditUserModal';
import { initialListState, listReducer, selectionEnabled, toQuery } from './list-state';
import { PlansModal } from './PlansModal';
import { SessionsModal } from './SessionsModal';
import { TEXT_USERS, verifiedMessage } from './texts';
import { UsersTable } from './UsersTable';
import { VerifyDialog } from './VerifyDialog';

const Filters = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  gap: 12px 24px;
  margin-bottom: 16px;
`;

/** A field with its button beside it, kept on one line. */
const Group = styled.div`
  display: flex;
  align-items: flex-end;
  gap: 8px;
  flex: 1 1 280px;
  min-width: 0;
  max-width: 100%;
  & > label { flex: 1; min-width: 0; }
  & > label > input, & > label > select { width: 100%; min-width: 0; box-sizing: border-box; }
  & > button { flex: none; }
`;

const Hint = styled.p`
  margin: -4px 0 16px;
  color: ${theme.color.muted};
  font-size: 0.9rem;
`;

const Empty = styled.p`
  text-align: center;
  padding: 32px 0;
  margin: 0;
`;

/** User management (spec §2 '/admin/usuarios'). */
export default function UsersPage() {
  const currentUserId = useSession((s) => s.user?.id);
  const [state, dispatch] = useReducer(listReducer, initialListState);
  const [list, setList] = useState<UserPage | null>(null);
  const [stats, setStats] = useState<UserStats | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [confirmVerify, setConfirmVerify] = useState(false);
  const [verifying, setVerifying] = useState(false);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [plansFor, setPlansFor] = useState<AdminUser | null>(null);
  const [sessionsFor, setSessionsFor] = useState<AdminUser | null>(null);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [confirmSuspend, setConfirmSuspend] = useState<AdminUser | null>(null);
  const [alert, showAlert] = useTimedMessage(ADMIN_ALERT_MS);
  const [reloads, setReloads] = useState(0);
  // The list's first load failed: said on screen with 'Reintentar' instead of 'Cargando usuarios...' for ever.
  const [loadError, setLoadError] = useState<string | null>(null);

  const loadStats = useCallback(() => {
    // Spec §8: list and stats failures are only logged.
    getUserStats().then(setStats, (error) => console.error(error));
  }, []);

  useEffect(loadStats, [loadStats]);

  const { page, limit, status, email, cursor } = state;
  useEffect(() => {
    let current = true;
    listUsers(toQuery({ ...initialListState, page, limit, status, email, cursor })).then(
      (result) => {
        if (!current) return;
        setList(result);
        setLoadError(null);
        const { totalPages, totalCapped, currentPage, nextCursor, prevCursor } = result;
        dispatch({ type: 'loaded', totalPages, totalCapped, page: currentPage, nextCursor, prevCursor });
      },
      (error) => {
        console.error(error);
        if (current) setLoadError(errorMessage(error, TEXT_USERS.usersLoadFailed));
      },
    );
    return () => {
      current = false;
    };
  }, [page, limit, status, email, cursor, reloads]);

  const reload = () => {
    setLoadError(null);
    setReloads((n) => n + 1);
    loadStats();
  };

  const selectable = selectionEnabled(state);
  // Stable, so the modal does not re-run its focus handling on every render of this page.
  const closePlans = useCallback(() => setPlansFor(null), []);
  const closeSessions = useCallback(() => setSessionsFor(null), []);
  const closeConfirm = useCallback(() => setConfirmSuspend(null), []);
  const closeEdit = useCallback(() => setEditing(null), []);
  const closeVerify = useCallback(() => setConfirmVerify(false), []);
  // Greyed out with a word why: outside the pending filter, or with nobody marked yet among those listed.
  const verifyHint = !selectable
    ? TEXT_USERS.verifyNeedsPendingFilter
    : selected.size === 0 && (list?.data.length ?? 0) > 0
      ? TEXT_USERS.verifyNeedsSelection
      : null;

  const edited = (user: AdminUser) => {
    setEditing(null);
    showAlert({ tone: 'success', text: TEXT_USERS.userUpdated(user.email) });
    reload();
  };

  const changeStatusFilter = (value: UserStatus | '') => {
    setSelected(new Set());
    dispatch({ type: 'status', status: value });
  };

  const toggle = (id: number) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const verify = async () => {
    setVerifying(true);
    try {
      const result = await verifyEmails([...selected]);
      showAlert({ tone: 'success', text: verifiedMessage(result.verified) });
      setSelected(new Set());
      reload();
    } catch (error) {
      // Spec §8: thrown as 'Error al verificar Ids' with its reason; the screen says the spec's sentence.
      console.error('Error al verificar Ids', error);
      showAlert({ tone: 'error', text: ADMIN_FALLBACK.verifyUsers });
    } finally {
      setVerifying(false);
      setConfirmVerify(false);
    }
  };

  // Suspending ends the person's sessions: it is confirmed first. Reactivating is not.
  const askToggleStatus = (user: AdminUser) => {
    if (user.status === 'active') setConfirmSuspend(user);
    else void toggleStatus(user);
  };

  const toggleStatus = async (user: AdminUser) => {
    setConfirmSuspend(null);
    setBusyId(user.id);
    try {
      const { user: updated } = await changeUserStatus(user.id);
      showAlert({ tone: 'success', text: TEXT_USERS.statusChanged(updated.email, updated.status === 'suspended') });
      reload();
    } catch (error) {
      showAlert({ tone: 'error', text: errorMessage(error, String(error)) });
    } finally {
      setBusyId(null);
    }
  };

  return (
    <AdminPage>
      <h1>{TEXT_USERS.usersTitle}</h1>
      <StatGrid>
        <StatCard title={TEXT_ADMIN.totalUsers} value={stats?.totalUsers ?? '—'} />
        <StatCard title={TEXT_USERS.activeUsers} value={stats?.activeUsers ?? '—'} />
        <StatCard title={TEXT_USERS.pendingVerification} value={stats?.pendingVerification ?? '—'} />
        <StatCard title={TEXT_USERS.administrators} value={stats ? administratorsShown(stats.administrators) : '—'} />
      </StatGrid>

      <Panel aria-label={TEXT_USERS.usersTitle}>
        <Filters>
          <Group
            as="form"
            role="search"
            onSubmit={(event: React.FormEvent) => {
              event.preventDefault();
              dispatch({ type: 'search' });
            }}
          >
            <FieldLabel htmlFor="users-email-filter">
              {TEXT_USERS.emailFilter}
              <Input
                id="users-email-filter"
                type="search"
                placeholder={TEXT_USERS.emailPlaceholder}
                value={state.emailInput}
                maxLength={254}
                onChange={(event) => dispatch({ type: 'typeEmail', value: event.target.value })}
              />
            </FieldLabel>
            <Button type="submit">{TEXT_USERS.search}</Button>
          </Group>
          <Group>
            <SelectField
              id="users-status-filter"
              label={TEXT_USERS.statusFilter}
              value={state.status}
              options={STATUS_FILTER_OPTIONS}
              onChange={changeStatusFilter}
            />
            <Button
              $variant="secondary"
              disabled={!selectable || selected.size === 0 || verifying}
              aria-describedby={verifyHint ? 'users-verify-hint' : undefined}
              onClick={() => setConfirmVerify(true)}
            >
              {TEXT_USERS.verify}
            </Button>
          </Group>
        </Filters>
        {verifyHint && <Hint id="users-verify-hint">{verifyHint}</Hint>}

        {alert && <Alert tone={alert.tone}>{alert.text}</Alert>}

        {list === null && loadError ? (
          <LoadFailed message={loadError} onRetry={reload} />
        ) : list === null ? (
          <Spinner label={TEXT_USERS.loadingUsers} />
        ) : list.data.length === 0 ? (
          <Empty>{TEXT_USERS.noUsers}</Empty>
        ) : (
          <UsersTable
            users={list.data}
            selectable={selectable}
            selected={selected}
            currentUserId={currentUserId}
            busyId={busyId}
            onToggle={toggle}
            onPlans={setPlansFor}
            onSessions={setSessionsFor}
            onEdit={setEditing}
            onToggleStatus={askToggleStatus}
          />
        )}

        <ListFooter
          id="users-page-size"
          sizeLabel={TEXT_USERS.pageSize}
          limit={limit}
          onLimit={(next) => dispatch({ type: 'limit', limit: next })}
          page={page}
          totalPages={list ? reachablePages(list.totalPages, page, list.totalCapped, list.hasNextPage) : 0}
          onPage={(next) => dispatch({ type: 'page', page: next })}
          onStep={(step) => dispatch({ type: 'step', step })}
          hasNextPage={list?.totalCapped ? list.hasNextPage : undefined}
          summary={list && list.total > 0 ? TEXT_USERS.usersFound(list.total, list.totalCapped) : null}
        />
      </Panel>

      {plansFor && <PlansModal user={plansFor} onClose={closePlans} />}
      {editing && <EditUserModal user={editing} currentUserId={currentUserId} onSaved={edited} onClose={closeEdit} />}
      {sessionsFor && <SessionsModal user={sessionsFor} onClose={closeSessions} />}
      {confirmVerify && (
        <VerifyDialog count={selected.size} busy={verifying} onConfirm={() => void verify()} onClose={closeVerify} />
      )}
      {confirmSuspend && (
        <Modal title={TEXT_USERS.confirmSuspendTitle} onClose={closeConfirm}>
          <p>{TEXT_USERS.confirmSuspend(confirmSuspend.email)}</p>
          <DialogActions>
            <Button $variant="secondary" onClick={closeConfirm}>
              {TEXT_ADMIN.cancel}
            </Button>
            <Button $variant="danger" onClick={() => void toggleStatus(confirmSuspend)}>
              {TEXT_USERS.suspend}
            </Button>
          </DialogActions>
        </Modal>
      )}
    </AdminPage>
  );
}
