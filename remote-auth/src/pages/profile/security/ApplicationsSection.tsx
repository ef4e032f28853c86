import { useCallback, useEffect, useState } from 'react';
import { Alert, type AuthorizedApp, Button, errorMessage, LoadFailed, Modal } from '@portal/shared';
import { APPLICATIONS_LOAD_FAILED, listAuthorizedApps, REVOKE_FAILED, revokeAuthorizedApp } from './applications-api';
import { absoluteDate } from './dates';
import { List, Row, Section } from './styles';

/**
 * 'Aplicaciones con acceso': the third-party apps the person allowed to use the account through the portal's sign-in,
 * what each may see and since when, with 'Quitar acceso' (after a confirmation): the app's tokens are revoked, its
 * sessions end, and it must ask again.
 */
export function ApplicationsSection() {
  const [apps, setApps] = useState<AuthorizedApp[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [removing, setRemoving] = useState<AuthorizedApp | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      setApps(await listAuthorizedApps());
    } catch (caught) {
      setLoadError(errorMessage(caught, APPLICATIONS_LOAD_FAILED));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const revoke = async (app: AuthorizedApp) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await revokeAuthorizedApp(app.clientId);
      setNotice(`Se quitó el acceso de ${app.nombre}`);
    } catch (caught) {
      setError(errorMessage(caught, REVOKE_FAILED));
    } finally {
      setRemoving(null);
      setBusy(false);
      await load();
    }
  };

  return (
    <Section aria-labelledby="aplicaciones-titulo">
      <h2 id="aplicaciones-titulo">Aplicaciones con acceso</h2>
      <p>Las aplicaciones externas a las que permitiste usar tu cuenta del portal.</p>
      {error && <Alert tone="error">{error}</Alert>}
      {notice && <Alert tone="success">{notice}</Alert>}
      {loadError && <LoadFailed message={loadError} onRetry={() => void load()} />}
      {apps === null && !loadError && <p>Cargando aplicaciones con acceso…</p>}
      {apps?.length === 0 && <p>No has permitido el acceso a ninguna aplicación externa.</p>}
      {apps && apps.length > 0 && (
        <List aria-label="Aplicaciones con acceso">
          {apps.map((app) => (
            <li key={app.clientId} data-testid="aplicacion">
              <p>
                <strong>{app.nombre}</strong>
              </p>
              <p>Puede: {app.permisos.map((permiso) => permiso.descripcion).join(' · ')}</p>
              <p>Desde el {absoluteDate(app.autorizadaEn)}</p>
              <Row>
                <Button
                  $variant="secondary"
                  disabled={busy}
                  aria-label={`Quitar acceso de ${app.nombre}`}
                  onClick={() => setRemoving(app)}
                >
                  Quitar acceso
                </Button>
              </Row>
            </li>
          ))}
        </List>
      )}
      {removing && (
        <Modal
          title={`¿Quitar el acceso de ${removing.nombre}?`}
          width="480px"
          onClose={() => !busy && setRemoving(null)}
        >
          <p>
            {removing.nombre} ya no podrá usar tu cuenta: se cerrarán sus sesiones y tendrá que pedirte permiso de
            nuevo.
          </p>
          <Row>
            <Button $variant="danger" disabled={busy} onClick={() => void revoke(removing)}>
              Quitar acceso
            </Button>
            <Button $variant="secondary" disabled={busy} onClick={() => setRemoving(null)}>
              Cancelar
            </Button>
          </Row>
        </Modal>
      )}
    </Section>
  );
}
