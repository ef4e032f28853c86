import { useState } from 'react';
import { Alert, type AuthorizedApp, Button, errorMessage, LoadFailed } from '@portal/shared';
import { useLoad } from '../../../hooks/useLoad';
import { APPLICATIONS_LOAD_FAILED, listAuthorizedApps, REVOKE_FAILED, revokeAuthorizedApp } from './applications-api';
import { ConfirmRemoval } from './ConfirmRemoval';
import { absoluteDate } from './dates';
import { List, Row, Section } from './styles';

/**
 * 'Aplicaciones con acceso': the third-party apps the person allowed to use the account through the portal's sign-in,
 * what each may see and since when, with 'Quitar acceso' (after a confirmation): the app's tokens are revoked, its
 * sessions end, and it must ask again.
 */
export function ApplicationsSection() {
  const { data: apps, error: loadError, reload } = useLoad(listAuthorizedApps, APPLICATIONS_LOAD_FAILED);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [removing, setRemoving] = useState<AuthorizedApp | null>(null);
  const [busy, setBusy] = useState(false);

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
      await reload();
    }
  };

  return (
    <Section aria-labelledby="aplicaciones-titulo">
      <h2 id="aplicaciones-titulo">Aplicaciones con acceso</h2>
      <p>Las aplicaciones externas a las que permitiste usar tu cuenta del portal.</p>
      {error && <Alert tone="error">{error}</Alert>}
      {notice && <Alert tone="success">{notice}</Alert>}
      {loadError && <LoadFailed message={loadError} onRetry={() => void reload()} />}
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
        <ConfirmRemoval
          title={`¿Quitar el acceso de ${removing.nombre}?`}
          confirmLabel="Quitar acceso"
          busy={busy}
          width="480px"
          onConfirm={() => void revoke(removing)}
          onCancel={() => setRemoving(null)}
        >
          <p>
            {removing.nombre} ya no podrá usar tu cuenta: se cerrarán sus sesiones y tendrá que pedirte permiso de
            nuevo.
          </p>
        </ConfirmRemoval>
      )}
    </Section>
  );
}
