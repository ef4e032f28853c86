import { useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import { Button, theme } from '@portal/shared';
import { AuthLayout } from '../components/AuthLayout';
import { AUTHORIZE_PROBLEM_TITLE, AUTHORIZE_PROBLEMS, type AuthorizeProblem } from '../rules/authorization';

const Detail = styled.p`
  margin: 0;
  color: ${theme.color.muted};
`;

/**
 * Why an app's sign-in cannot go on, in the portal's own words (never a text from the address), and the way on:
 * 'Ir a Aplicaciones'. The page /autorizar/error, and /autorizar when the interaction is unknown or expired.
 */
export function AuthorizeProblemScreen({ problem }: { problem: AuthorizeProblem }) {
  const navigate = useNavigate();
  return (
    <AuthLayout title={AUTHORIZE_PROBLEM_TITLE} focusTitle>
      <Detail>{AUTHORIZE_PROBLEMS[problem]}</Detail>
      <Button $block onClick={() => navigate('/apps')}>
        Ir a Aplicaciones
      </Button>
    </AuthLayout>
  );
}
