import { Link } from 'react-router-dom';
import styled from 'styled-components';
import {
  Alert,
  Button,
  invitationText,
  pendingCompanies,
  pendingJoinText,
  theme,
  useCompanyLinkNotice,
  useSession,
} from '@portal/shared';
import { companiesAskingSecondFactor, SECOND_FACTOR_SETUP_PATH, secondFactorAskedText } from '../../rules/companies';
import { useCompanyNotices } from './useCompanyNotices';

const List = styled.ul`
  display: grid;
  gap: 8px;
  margin: 0 0 16px;
  padding: 0;
  list-style: none;
`;

const Notice = styled.li`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 8px 16px;
  padding: 12px 14px;
  border-radius: ${theme.radius};
  border: 1px solid ${theme.color.info};
  background: ${theme.color.infoBg};
  color: ${theme.color.info};
  p { margin: 0; font-weight: 600; }
`;

const NoticeError = styled.div`
  flex-basis: 100%;
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  /* On a phone the two buttons share the row under the sentence. */
  @media (max-width: ${theme.breakpoint.mobile}) {
    flex: 1 1 100%;
    button { flex: 1 1 0; }
  }
`;

/**
 * Above the apps: each pending invitation to the person's address ('Minera Andina S.A. te invitó a unirte como
 * Miembro', 'Aceptar', 'Rechazar'), each company whose approval of a domain join is awaited, and each company whose
 * seats wait for the second factor it asks of its members.
 */
export function CompanyNotices() {
  const companies = useSession((s) => s.user?.empresas);
  const { notices, joined, accept, decline } = useCompanyNotices();
  const waiting = pendingCompanies(companies);
  const asking = companiesAskingSecondFactor(companies);
  // The link to a company's own sign-in that the sign-in just made redeemed (or could not).
  const linked = useCompanyLinkNotice();
  if (notices.length === 0 && waiting.length === 0 && asking.length === 0 && !joined && !linked) return null;
  return (
    <section aria-label="Avisos de empresas">
      {linked && <Alert tone={linked.tone}>{linked.text}</Alert>}
      {joined && <Alert tone="success">{joined}</Alert>}
      {(notices.length > 0 || waiting.length > 0 || asking.length > 0) && (
        <List>
          {notices.map(({ invitation, busy, error }) => {
            const company = invitation.empresa.nombre;
            return (
              <Notice key={`invitacion-${invitation.id}`}>
                <p>{invitationText(invitation)}</p>
                <Actions>
                  <Button
                    disabled={busy !== null}
                    onClick={() => void accept(invitation.id)}
                    aria-label={`Aceptar la invitación de ${company}`}
                  >
                    {busy === 'accept' ? 'Aceptando...' : 'Aceptar'}
                  </Button>
                  <Button
                    $variant="secondary"
                    disabled={busy !== null}
                    onClick={() => void decline(invitation.id)}
                    aria-label={`Rechazar la invitación de ${company}`}
                  >
                    {busy === 'decline' ? 'Rechazando...' : 'Rechazar'}
                  </Button>
                </Actions>
                {error && (
                  <NoticeError>
                    <Alert>{error}</Alert>
                  </NoticeError>
                )}
              </Notice>
            );
          })}
          {waiting.map((company) => (
            <Notice key={`pendiente-${company.id}`}>
              <p>{pendingJoinText(company)}</p>
            </Notice>
          ))}
          {asking.map((company) => (
            <Notice key={`segundo-factor-${company.id}`}>
              <p>{secondFactorAskedText(company)}</p>
              <Link to={SECOND_FACTOR_SETUP_PATH}>Configurar segundo factor</Link>
            </Notice>
          ))}
        </List>
      )}
    </section>
  );
}
