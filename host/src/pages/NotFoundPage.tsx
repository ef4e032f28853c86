import { useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import { Button, Card, getRuntimeConfig, PageContainer, TEXT, theme } from '@portal/shared';

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  margin: 16px 0;
`;

const Hint = styled.p`
  color: ${theme.color.muted};
`;

/**
 * Whether 'Regresar' has a page of the portal to go back to: react-router numbers its history entries (`idx`), and
 * the first page of a visit (an address typed or followed from elsewhere) is 0.
 */
function hasPortalHistory(): boolean {
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

/** Spec §2: the catch-all page. The shell owns it, so it shows even when every remote is down. */
export function NotFoundPage() {
  const navigate = useNavigate();
  const { supportEmail } = getRuntimeConfig().links;
  return (
    <PageContainer>
      <Card>
        <h1>{TEXT.notFound}</h1>
        <p>La dirección que buscas no existe o fue movida.</p>
        <Actions>
          <Button onClick={() => navigate('/apps')}>Ir a Aplicaciones</Button>
          <Button $variant="secondary" onClick={() => (hasPortalHistory() ? navigate(-1) : navigate('/apps'))}>
            Regresar
          </Button>
        </Actions>
        {/* Without SUPPORT_EMAIL the runtime config carries no address: an administrator is who helps then. */}
        <Hint>
          ¿Necesitas ayuda?{' '}
          {supportEmail ? (
            <>
              Escríbenos a <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
            </>
          ) : (
            'Pregunta a un administrador del portal.'
          )}
        </Hint>
      </Card>
    </PageContainer>
  );
}
