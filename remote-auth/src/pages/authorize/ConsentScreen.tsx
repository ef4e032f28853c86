import { useId } from 'react';
import styled from 'styled-components';
import { Alert, Button, type InteractionDetails, theme } from '@portal/shared';
import { AuthLayout } from '../../components/AuthLayout';

const Text = styled.p`
  margin: 0;
  color: ${theme.color.muted};
  strong { color: ${theme.color.text}; overflow-wrap: anywhere; }
`;

const Permissions = styled.ul`
  margin: 0;
  padding: 12px 14px 12px 34px;
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius};
  li + li { margin-top: 6px; }
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  > * { flex: 1 1 140px; }
`;

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
      <Text>
        Has iniciado sesión como <strong>{email}</strong>
      </Text>
      <Text id={listId}>{app} podrá:</Text>
      <Permissions aria-labelledby={listId}>
        {details.permisos.map((permiso) => (
          <li key={permiso.scope}>{permiso.descripcion}</li>
        ))}
      </Permissions>
      {!details.cliente.primeraParte && (
        <Alert tone="info">
          {app} es una aplicación de terceros: no pertenece al portal. Permite el acceso solo si confías en ella. Podrás
          quitárselo cuando quieras en Mi perfil, pestaña Seguridad.
        </Alert>
      )}
      {error && <Alert tone="error">{error}</Alert>}
      <Actions>
        <Button disabled={busy !== null} onClick={onAllow}>
          {busy === 'allow' ? 'Conectando...' : 'Permitir'}
        </Button>
        <Button $variant="secondary" disabled={busy !== null} onClick={onCancel}>
          {busy === 'cancel' ? 'Cancelando...' : 'Cancelar'}
        </Button>
      </Actions>
    </AuthLayout>
  );
}
