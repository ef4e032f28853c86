import { useCallback, useEffect, useState } from 'react';
import styled from 'styled-components';
import {
  Alert,
  Button,
  endUserSession,
  errorMessage,
  FALLBACK,
  listUserSessions,
  Modal,
  Spinner,
  theme,
  type AdminUser,
  type PortalSession,
} from '@portal/shared';
import { TEXT_USERS } from './texts';

const List = styled.ul`
  list-style: none;
  margin: 0 0 16px;
  padding: 0;
  li {
    display: flex;
    justify-content: space-between;
    align-items: center;
    gap: 12px;
    padding: 12px 0;
    border-bottom: 1px solid ${theme.color.border};
  }
  p { margin: 2px 0; }
`;

const dateTime = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeStyle: 'short' });

/** 'Sesiones' of a user's row: the user's open sessions, each with 'Cerrar sesión' (audited by the API). */
export function SessionsModal({ user, onClose }: { user: Pick<AdminUser, 'id' | 'email'>; onClose: () => void }) {
  const [sessions, setSessions] = useState<PortalSession[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setSessions(await listUserSessions(user.id));
    } catch (caught) {
      setError(errorMessage(caught, FALLBACK.sessions));
    }
  }, [user.id]);

  useEffect(() => {
    void load();
  }, [load]);

  const end = async (session: PortalSession) => {
    setBusyId(session.id);
    setNotice(null);
    setError(null);
    try {
      await endUserSession(user.id, session.id);
      setNotice(TEXT_USERS.sessionEnded(session.label));
    } catch (caught) {
      setError(errorMessage(caught, FALLBACK.endSession));
    } finally {
      setBusyId(null);
      await load();
    }
  };

  return (
    <Modal title={TEXT_USERS.sessionsOf(user.email)} onClose={onClose}>
      {error && <Alert tone="error">{error}</Alert>}
      {notice && <Alert tone="success">{notice}</Alert>}
      {sessions === null && !error && <Spinner label={TEXT_USERS.loadingSessions} />}
      {sessions?.length === 0 && <p>{TEXT_USERS.noSessions}</p>}
      {sessions && sessions.length > 0 && (
        <List aria-label={TEXT_USERS.openSessions}>
          {sessions.map((session) => (
            <li key={session.id}>
              <div>
                <p>
                  <strong>
                    {session.device} · {session.label}
                  </strong>
                </p>
                <p>
                  {TEXT_USERS.sessionAddress}: {session.address}
                </p>
                <p>
                  {TEXT_USERS.sessionStarted}: {dateTime.format(new Date(session.createdAt))} ·{' '}
                  {TEXT_USERS.sessionLastSeen}: {dateTime.format(new Date(session.lastSeenAt))}
                </p>
              </div>
              <Button
                $variant="danger"
                disabled={busyId !== null}
                onClick={() => end(session)}
                aria-label={TEXT_USERS.endSessionOf(session.label)}
              >
                {TEXT_USERS.endSession}
              </Button>
            </li>
          ))}
        </List>
      )}
      <Button $variant="secondary" onClick={onClose}>
        Cerrar
      </Button>
    </Modal>
  );
}
