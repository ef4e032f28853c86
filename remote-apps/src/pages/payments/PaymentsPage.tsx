import { useEffect } from 'react';
import styled from 'styled-components';
import { Alert, billingEnabled, Button, Card, useBilling, useSession } from '@portal/shared';
import { GoButton, Heading, Lead, Page, Row } from '../../components/Page';

const Box = styled(Card)`
  display: flex;
  flex-direction: column;
  gap: 16px;
  p { margin: 0; }
`;

/** /pagos: where payments are managed (the provider's billing portal), and the way back to the apps. */
export default function PaymentsPage() {
  const user = useSession((s) => s.user);
  const { loading: busy, error } = useBilling((s) => s.portal);
  const openPortal = useBilling((s) => s.openPortal);
  const clearErrors = useBilling((s) => s.clearErrors);
  useEffect(() => clearErrors, [clearErrors]);

  return (
    <Page>
      <Heading>Pagos</Heading>
      <Lead>Tus suscripciones, facturas y métodos de pago.</Lead>
      <Box>
        {billingEnabled() ? (
          <p>Consulta y administra tus pagos en el portal de facturación.</p>
        ) : (
          <p>Los pagos en línea aún no están disponibles. Tus planes actuales siguen activos.</p>
        )}
        {error && <Alert>{error}</Alert>}
        <Row>
          {billingEnabled() && (
            <Button onClick={() => user && openPortal(user.id)} disabled={busy || !user}>
              Mi facturación
            </Button>
          )}
          <GoButton to="/apps" variant="secondary">
            Ir al Panel Principal
          </GoButton>
        </Row>
      </Box>
    </Page>
  );
}
