import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, errorMessage, type TrustedDevice } from '@portal/shared';
import { absoluteDate, relativeDate } from './dates';
import { Badge, List, Row, Section } from './styles';
import { listTrustedDevices, removeAllTrustedDevices, removeTrustedDevice } from './trusted-devices-api';

const LOAD_FAILED = 'No se pudieron cargar los dispositivos de confianza';

/**
 * 'Dispositivos de confianza' (docs/decisions/0143-trusted-devices.md): the browsers where the person ticked 'No
 * volver a pedir en este dispositivo durante 30 días', when each was added and last used, and a way to remove one or
 * all. `version` changes when something else ended them ('Cerrar todas las demás sesiones'): the list is read again.
 */
export function TrustedDevicesSection({ version = 0 }: { version?: number }) {
  const [devices, setDevices] = useState<TrustedDevice[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setDevices(await listTrustedDevices());
      setError(null);
    } catch (caught) {
      setError(errorMessage(caught, LOAD_FAILED));
    }
  }, []);

  // `version` is the signal to read the list again.
  useEffect(() => {
    void load();
  }, [load, version]);

  const run = async (work: () => Promise<string>, fallback: string) => {
    setBusy(true);
    setNotice(null);
    try {
      setNotice(await work());
      setError(null);
    } catch (caught) {
      setError(errorMessage(caught, fallback));
    } finally {
      setBusy(false);
      await load();
    }
  };

  return (
    <Section aria-labelledby="dispositivos-titulo">
      <h2 id="dispositivos-titulo">Dispositivos de confianza</h2>
      <p>
        Donde marcaste «No volver a pedir en este dispositivo durante 30 días»: al iniciar sesión con tu contraseña no
        se te pide el segundo factor. Una aplicación que lo pide expresamente lo pide igual.
      </p>
      {error && <Alert tone="error">{error}</Alert>}
      {notice && <Alert tone="success">{notice}</Alert>}
      {devices === null && !error && <p>Cargando dispositivos…</p>}
      {devices?.length === 0 && <p>No tienes dispositivos de confianza.</p>}
      {devices && devices.length > 0 && (
        <>
          <List aria-label="Dispositivos de confianza">
            {devices.map((device) => (
              <li key={device.id}>
                <p>
                  <strong>{device.label}</strong>
                  {device.actual && <Badge>Este dispositivo</Badge>}
                </p>
                <p title={absoluteDate(device.createdAt)}>Agregado: {absoluteDate(device.createdAt)}</p>
                <p title={absoluteDate(device.lastUsedAt)}>Último uso: {relativeDate(device.lastUsedAt)}</p>
                <Row>
                  <Button
                    $variant="secondary"
                    disabled={busy}
                    aria-label={`Quitar ${device.label}, agregado el ${absoluteDate(device.createdAt)}`}
                    onClick={() =>
                      run(async () => {
                        await removeTrustedDevice(device.id);
                        return 'Dispositivo quitado: volverá a pedir el segundo factor';
                      }, 'No se pudo quitar el dispositivo')
                    }
                  >
                    Quitar
                  </Button>
                </Row>
              </li>
            ))}
          </List>
          <Button
            $variant="danger"
            disabled={busy}
            onClick={() =>
              run(async () => {
                const { quitados } = await removeAllTrustedDevices();
                return quitados === 1 ? 'Se quitó 1 dispositivo' : `Se quitaron ${quitados} dispositivos`;
              }, 'No se pudieron quitar los dispositivos')
            }
          >
            Quitar todos
          </Button>
        </>
      )}
    </Section>
  );
}
