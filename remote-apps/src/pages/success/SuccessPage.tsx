import styled from 'styled-components';
import { Card, theme } from '@portal/shared';
import { GoButton, Page } from '../../components/Page';

const Box = styled(Card)`
  max-width: 520px;
  margin: 32px auto;
  text-align: center;
  h1 { margin: 8px 0; color: ${theme.color.success}; }
  p { color: ${theme.color.muted}; }
`;

const Check = styled.span`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 64px;
  height: 64px;
  border-radius: 50%;
  background: ${theme.color.successBg};
  color: ${theme.color.success};
  font-size: 2rem;
  font-weight: 700;
`;

/** /success, spec §2: '¡Éxito!' and the way back to /apps. */
export default function SuccessPage() {
  return (
    <Page>
      <Box>
        <Check aria-hidden="true">✓</Check>
        <h1>¡Éxito!</h1>
        <p>Tu pago se procesó correctamente. Tu plan se actualizará en unos instantes.</p>
        <GoButton to="/apps">Ir al Panel Principal</GoButton>
      </Box>
    </Page>
  );
}
