import styled from 'styled-components';
import { getRuntimeConfig, theme } from '@portal/shared';

const Page = styled.main`
  max-width: 760px;
  margin: 0 auto;
  padding: 40px 16px 56px;
  font-family: ${theme.font};
  color: ${theme.color.text};
  line-height: 1.6;
  h1 { margin: 0 0 16px; font-size: 1.75rem; line-height: 1.25; }
  h2 { margin: 28px 0 8px; font-size: 1.2rem; }
  ul { padding-left: 22px; }
  a { color: ${theme.color.primary}; font-weight: 600; overflow-wrap: anywhere; }
`;

const Warning = styled.p`
  padding: 12px 14px;
  border: 1px solid ${theme.color.danger};
  border-radius: ${theme.radius};
  color: ${theme.color.danger};
  background: ${theme.color.dangerBg};
`;

/** /playstoreapps/beto/datos-personales (spec §2): how to ask for the deletion of one's personal data. */
export default function PersonalDataPage() {
  const { supportEmail } = getRuntimeConfig().links;
  return (
    <Page>
      <h1>Eliminación de datos personales</h1>
      {/* Without SUPPORT_EMAIL the runtime config carries no address: an administrator is the one who can. */}
      <p>
        Puedes solicitar la eliminación de tu cuenta y de tus datos personales de Beto Pro y del portal{' '}
        {supportEmail ? (
          <>
            escribiendo a <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
          </>
        ) : (
          'a un administrador del portal.'
        )}
      </p>
      <h2>Qué debes incluir en el correo</h2>
      <ul>
        <li>Tu nombre completo.</li>
        <li>El email de tu cuenta.</li>
        <li>El tipo de eliminación: toda la cuenta o solo algunos datos.</li>
      </ul>
      <h2>Plazos</h2>
      <ul>
        <li>Te responderemos en un plazo de 1 a 3 días hábiles.</li>
        <li>La eliminación se completa en un plazo de 5 a 7 días hábiles.</li>
      </ul>
      <Warning>
        La eliminación es irreversible: una vez completada, no podremos recuperar tu cuenta ni tus datos.
      </Warning>
    </Page>
  );
}
