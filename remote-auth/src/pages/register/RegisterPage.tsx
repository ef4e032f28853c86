import styled from 'styled-components';
import { Alert, theme } from '@portal/shared';
import { AuthLayout, Footer, TextLink } from '../../components/AuthLayout';
import { DetailsStep } from './DetailsStep';
import { PasswordStep } from './PasswordStep';
import { useRegistration } from './useRegistration';

const Step = styled.p`
  margin: 0;
  color: ${theme.color.muted};
  font-weight: 600;
`;

/**
 * /register (spec §2, §4, §5): a two-step wizard; the email is checked with the server before step 2. Opened from a
 * company invitation (`?email=…&invitacion=…`), the invited address is typed and the account is active at once.
 */
export default function RegisterPage() {
  const registration = useRegistration();
  return (
    <AuthLayout title="Crear cuenta">
      <Step>Paso {registration.step} de 2</Step>
      {registration.invitedEmail && (
        <Alert tone="info">
          Con la invitación a {registration.invitedEmail} tu cuenta queda activa al crearla, sin código de verificación.
        </Alert>
      )}
      {registration.step === 1 ? (
        <DetailsStep {...registration.details} />
      ) : (
        <PasswordStep {...registration.password} />
      )}
      <Footer>
        ¿Ya tienes una cuenta? <TextLink to={registration.loginPath}>Iniciar Sesión</TextLink>
      </Footer>
    </AuthLayout>
  );
}
