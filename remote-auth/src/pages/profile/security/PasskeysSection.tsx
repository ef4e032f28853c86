import { type FormEvent, useState } from 'react';
import { Alert, ApiError, Button, errorMessage, type Passkey, TextField } from '@portal/shared';
import { useLoad } from '../../../hooks/useLoad';
import { PasskeysElsewhere } from '../../../passkeys/PasskeysElsewhere';
import { usePasskeySupport } from '../../../passkeys/usePasskeys';
import { CANCELLED, creationProblem, isCancelledCeremony } from '../../../passkeys/webauthn';
import { ConfirmRemoval } from './ConfirmRemoval';
import { absoluteDate, relativeDate } from './dates';
import { ADD_FAILED, addPasskey, deletePasskey, listPasskeys } from './passkeys-api';
import { Badge, List, Row, Section } from './styles';

const NAME_MAX = 60;
const LOAD_FAILED = 'No se pudieron cargar las llaves de acceso';

/** What to say when adding failed: a cancelled ceremony, the API's message, the browser's reason, or the general one. */
function addFailure(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (isCancelledCeremony(error)) return CANCELLED;
  const problem = creationProblem(error);
  return problem ? `${ADD_FAILED}: ${problem}.` : ADD_FAILED;
}

/**
 * 'Llaves de acceso': this account's passkeys, each with 'Eliminar' (after a confirmation), and 'Agregar
 * llave de acceso' (a name, then the browser's ceremony). On an address that cannot use passkeys (an IP address) the
 * section says why and where they work, and offers no 'Agregar' that could only fail. `onChange` tells the tab the
 * factors changed.
 */
export function PasskeysSection({ onChange }: { onChange?: () => void }) {
  const { usable: supported, elsewhere } = usePasskeySupport();
  const { data: passkeys, error: loadError, reload: load } = useLoad(listPasskeys, LOAD_FAILED);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<string>, failure: (caught: unknown) => string) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      setNotice(await work());
      onChange?.();
      await load();
    } catch (caught) {
      setError(failure(caught));
    } finally {
      setBusy(false);
    }
  };

  const add = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError('Escribe un nombre para la llave');
      return;
    }
    setNameError(null);
    void run(async () => {
      await addPasskey(trimmed);
      setNaming(false);
      setName('');
      return 'Llave de acceso agregada';
    }, addFailure);
  };

  const remove = (passkey: Passkey) =>
    run(
      async () => {
        await deletePasskey(passkey.id);
        setRemoving(null);
        return 'Llave de acceso eliminada';
      },
      (caught) => {
        setRemoving(null);
        return errorMessage(caught, 'No se pudo eliminar la llave de acceso');
      },
    );

  return (
    <Section aria-labelledby="llaves-titulo">
      <h2 id="llaves-titulo">Llaves de acceso</h2>
      <p>
        Inicia sesión con la huella, el rostro o el bloqueo de pantalla de tu dispositivo, sin escribir la contraseña.
      </p>
      {(error ?? loadError) && <Alert tone="error">{error ?? loadError}</Alert>}
      {notice && <Alert tone="success">{notice}</Alert>}
      {passkeys === null && !loadError && <p>Cargando llaves de acceso…</p>}
      {passkeys && (
        <List aria-label="Llaves de acceso">
          {passkeys.map((passkey) => (
            <li key={passkey.id} data-testid="llave">
              <p>
                <strong>{passkey.name}</strong>
                {passkey.backedUp && <Badge>Sincronizada</Badge>}
              </p>
              <p>Creada el {absoluteDate(passkey.createdAt)}</p>
              <p title={passkey.lastUsedAt ? absoluteDate(passkey.lastUsedAt) : undefined}>
                {passkey.lastUsedAt ? `Último uso: ${relativeDate(passkey.lastUsedAt)}` : 'Sin usar todavía'}
              </p>
              <Row>
                <Button $variant="secondary" disabled={busy} onClick={() => setRemoving(passkey)}>
                  Eliminar
                </Button>
              </Row>
            </li>
          ))}
        </List>
      )}
      {passkeys?.length === 0 && <p>Aún no tienes llaves de acceso.</p>}
      {elsewhere && (
        <Alert tone="info">
          <PasskeysElsewhere unavailable={elsewhere} />
        </Alert>
      )}
      {supported === false && !elsewhere && <Alert tone="info">Este navegador no admite llaves de acceso</Alert>}
      {supported &&
        (naming ? (
          <form onSubmit={add} noValidate aria-label="Agregar llave de acceso">
            <TextField
              label="Nombre de la llave"
              hint="Para reconocerla después, por ejemplo: Mi portátil"
              maxLength={NAME_MAX}
              required
              autoComplete="off"
              value={name}
              error={nameError}
              onChange={(e) => setName(e.target.value)}
              disabled={busy}
            />
            <Row>
              <Button type="submit" disabled={busy}>
                {busy ? 'Esperando al dispositivo…' : 'Continuar'}
              </Button>
              <Button
                $variant="secondary"
                disabled={busy}
                onClick={() => {
                  setNaming(false);
                  setNameError(null);
                }}
              >
                Cancelar
              </Button>
            </Row>
          </form>
        ) : (
          <Button
            disabled={busy}
            onClick={() => {
              setNaming(true);
              setNotice(null);
              setError(null);
            }}
          >
            Agregar llave de acceso
          </Button>
        ))}
      {removing && (
        <ConfirmRemoval
          title="Eliminar llave de acceso"
          confirmLabel="Eliminar"
          busy={busy}
          onConfirm={() => void remove(removing)}
          onCancel={() => setRemoving(null)}
        >
          <p>¿Eliminar la llave de acceso «{removing.name}»?</p>
          <p>Ya no podrás iniciar sesión con ella.</p>
        </ConfirmRemoval>
      )}
    </Section>
  );
}
