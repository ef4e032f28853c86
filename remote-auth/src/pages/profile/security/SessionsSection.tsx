import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Button,
  endMyOtherSessions,
  endMySession,
  errorMessage,
  FALLBACK,
  listMySessions,
  type PortalSession,
} from '@portal/shared';
import { absoluteDate, relativeDate } from './dates';
import { Badge, List, Row, Section } from './styles';

/**
 * 'Sesiones': where this account is signed in, with 'Cerrar sesión' on each other one (after confirming). Closing all
 * the others ends the trusted devices too (`onOthersEnded`).
 */
export function SessionsSection({ onOthersEnded }: { onOthersEnded?: () => void } = {}) {
  const [sessions, setSessions] = useState<PortalSession[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setSessions(await listMySessions());
      setError(null);
    } catch (caught) {
      setError(errorMessage(caught, FALLBACK.sessions));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setNotice(null);
    try {
      setNotice(await work());
      setError(null);
    } catch (caught) {
      setError(errorMessage(caught, FALLBACK.endSession));
    } finally {
      setConfirming(null);
      setBusy(false);
      await load();
    }
  };

  const others = sessions?.filter((s) => !s.current) ?? [];

  return (
    <Section aria-labelledby="sesiones-titulo">
      <h2 id="sesiones-titulo">Sesiones</h2>
      <p>Los dispositivos donde tu cuenta tiene la sesión iniciada.</p>
      {error && <Alert tone="error">{error}</Alert>}
      {notice && <Alert tone="success">{notice}</Alert>}
      {sessions === null && !error && <p>Cargando sesiones…</p>}
      {sessions && (
        <List aria-label="Sesiones abiertas">
          {sessions.map((session) => (
            <li key={session.id} data-testid="sesion">
              <p>
                <strong>
                  {session.device} · {session.label}
                </strong>
                {session.current && <Badge>Este dispositivo</Badge>}
                {session.app !== null && <Badge>Con código de dispositivo</Badge>}
              </p>
              {session.app !== null && <p>Conectado a {session.app} con un código que confirmaste en /dispositivo.</p>}
              <p>Dirección: {session.address}</p>
              <p title={absoluteDate(session.createdAt)}>
                Inicio: {absoluteDate(session.createdAt)} ({relativeDate(session.createdAt)})
              </p>
              <p title={absoluteDate(session.lastSeenAt)}>Último uso: {relativeDate(session.lastSeenAt)}</p>
              {!session.current &&
                (confirming === session.id ? (
                  <Row role="group" aria-label="Confirmar cierre de sesión">
                    <span>¿Cerrar la sesión de {session.label}?</span>
                    <Button
                      $variant="danger"
                      disabled={busy}
                      onClick={() =>
                        run(async () => {
                          await endMySession(session.id);
                          return 'Sesión cerrada';
                        })
                      }
                    >
                      Sí, cerrar sesión
                    </Button>
                    <Button $variant="secondary" disabled={busy} onClick={() => setConfirming(null)}>
                      Cancelar
                    </Button>
                  </Row>
                ) : (
                  <Row>
                    <Button $variant="secondary" disabled={busy} onClick={() => setConfirming(session.id)}>
                      Cerrar sesión
                    </Button>
                  </Row>
                ))}
            </li>
          ))}
        </List>
      )}
      {others.length > 0 &&
        (confirming === 'otras' ? (
          <Row role="group" aria-label="Confirmar cierre de las demás sesiones">
            <span>¿Cerrar todas las demás sesiones? También se quitan tus dispositivos de confianza.</span>
            <Button
              $variant="danger"
              disabled={busy}
              onClick={() =>
                run(async () => {
                  const { ended } = await endMyOtherSessions();
                  onOthersEnded?.();
                  return ended === 1 ? 'Se cerró 1 sesión' : `Se cerraron ${ended} sesiones`;
                })
              }
            >
              Sí, cerrar todas
            </Button>
            <Button $variant="secondary" disabled={busy} onClick={() => setConfirming(null)}>
              Cancelar
            </Button>
          </Row>
        ) : (
          <Button disabled={busy} onClick={() => setConfirming('otras')}>
            Cerrar todas las demás sesiones
          </Button>
        ))}
    </Section>
  );
}
