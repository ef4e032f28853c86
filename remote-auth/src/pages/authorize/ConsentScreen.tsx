import { useId } from 'react';
import { Alert, Button, type InteractionDetails } from '@portal/shared';
import { ConsentActions, ConsentText, PermissionList } from '../../components/ConsentParts';
import { AuthLayout } from '../../components/AuthLayout';

export interface ConsentScreenProps {
  details: InteractionDetails;
  email: string;
  /** The answer under way: both buttons wait, the chosen one says so. */
  busy: 'allow' | 'cancel' | null;
  error: string | null;
  onAllow(): void;
  onCancel(): void;
}

/**
 * A third-party app asks for the person's account: who is signed in, what the app will see, that it is not the
 * portal's own, and 'Permitir' or 'Cancelar'. The heading takes the focus when the screen shows.
 */
export function ConsentScreen({ details, email, busy, error, onAllow, onCancel }: ConsentScreenProps) {
  const app = details.cliente.nombre;
  const listId = useId();
  return (
    <AuthLayout title={`${app} quiere acceder a tu cuenta`} focusTitle>
      <ConsentText>
        Has iniciado sesión como <strong>{email}</strong>
      </ConsentText>
      <ConsentText id={listId}>{app} podrá:</ConsentText>
      <PermissionList aria-labelledby={listId}>
        {details.permisos.map((permiso) => (
          <li key={permiso.scope}>{permiso.descripcion}</li>
        ))}
      </PermissionList>
      {!details.cliente.primeraParte && (
        <Alert tone="info">
          {app} es una aplicación de terceros: no pertenece al portal. Permite el acceso solo si confías en ella. Podrás
          quitárselo cuando quieras en Mi perfil, pestaña Seguridad.
        </Alert>
      )}
      {error && <Alert tone="error">{error}</Alert>}
      <ConsentActions>
        <Button disabled={busy !== null} onClick={onAllow}>
          {busy === 'allow' ? 'Conectando...' : 'Permitir'}
        </Button>
        <Button $variant="secondary" disabled={busy !== null} onClick={onCancel}>
          {busy === 'cancel' ? 'Cancelando...' : 'Cancelar'}
        </Button>
      </ConsentActions>
    </AuthLayout>
  );
}
