import { useSearchParams } from 'react-router-dom';
import styled from 'styled-components';
import { Alert, Button, ButtonLink, invitationText, Spinner, TEXT, theme } from '@portal/shared';
import { AuthLayout, Footer, TextLink } from '../../components/AuthLayout';
import { type CompanyLink, useInvitation } from './useInvitation';

export const INVITATION_TITLE = 'Invitación a una empresa';

const Text = styled.p`
  margin: 0;
  color: ${theme.color.text};
`;

const Muted = styled.p`
  margin: 0;
  color: ${theme.color.muted};
`;

const Actions = styled.div`
  display: flex;
  flex-direction: column;
  gap: 10px;
`;

const Invitations = styled.ul`
  margin: 0;
  padding-left: 20px;
  font-weight: 600;
`;

const AppsLink = () => (
  <Footer>
    <TextLink to="/apps">Ir a mis aplicaciones</TextLink>
  </Footer>
);

/** An owner's or administrator's way to the company's page, the first thing they do after joining. */
const ManageLink = ({ manage }: { manage: CompanyLink }) => (
  <ButtonLink to={manage.path} $block>
    {manage.label}
  </ButtonLink>
);

/**
 * /invitacion?codigo=…&email=…: the invitation mail's link. Signed in with the invited address, the company and role
 * and 'Aceptar invitación'; with another address, a way to change account; signed out, sign in or create the account
 * with the invitation (which proves the address: no emailed code).
 */
export default function InvitationPage() {
  const [params] = useSearchParams();
  const { state, accept, signIn, register, switchAccount } = useInvitation(params.get('codigo'), params.get('email'));

  switch (state.step) {
    case 'invalid':
      return (
        <AuthLayout title={INVITATION_TITLE}>
          <Alert>El enlace de invitación no es válido. Ábrelo de nuevo desde el email que recibiste.</Alert>
          <AppsLink />
        </AuthLayout>
      );
    case 'joined':
      return (
        <AuthLayout title={INVITATION_TITLE} focusTitle>
          <Alert tone="success">{state.text}</Alert>
          {state.manage && <ManageLink manage={state.manage} />}
          <AppsLink />
        </AuthLayout>
      );
    case 'signed-out':
      return (
        <AuthLayout title={INVITATION_TITLE}>
          <Text>
            Esta invitación es para <strong>{state.link.email}</strong>.
          </Text>
          <Muted>Inicia sesión con esa dirección para aceptarla, o crea tu cuenta si aún no tienes una.</Muted>
          <Actions>
            <Button $block onClick={signIn}>
              Iniciar sesión
            </Button>
            <Button $block $variant="secondary" onClick={register}>
              Crear cuenta
            </Button>
          </Actions>
        </AuthLayout>
      );
    case 'other-account':
      return (
        <AuthLayout title={INVITATION_TITLE}>
          <Alert tone="info">
            Esta invitación es para {state.link.email}, pero iniciaste sesión como {state.signedInAs}. Solo puede
            aceptarla la cuenta de la dirección invitada.
          </Alert>
          <Actions>
            <Button $block onClick={() => void switchAccount()}>
              Cerrar sesión y continuar
            </Button>
          </Actions>
          <AppsLink />
        </AuthLayout>
      );
    case 'ready':
      return (
        <AuthLayout title={INVITATION_TITLE}>
          {state.invitations === null ? (
            <Text>Tienes una invitación para unirte a una empresa.</Text>
          ) : state.invitations.length === 0 ? (
            <>
              <Muted>
                No encontramos invitaciones pendientes para {state.link.email}: puede que ya la hayas aceptado, que haya
                vencido o que la hayan anulado. Si esperabas una, pide otra a quien te invitó.
              </Muted>
              {state.memberships.map((membership) => (
                <Text key={membership.text}>
                  <strong>{membership.text}</strong>
                </Text>
              ))}
            </>
          ) : state.invitations.length === 1 ? (
            <Text>
              <strong>{invitationText(state.invitations[0] as (typeof state.invitations)[number])}</strong>
            </Text>
          ) : (
            <Invitations aria-label="Invitaciones pendientes">
              {state.invitations.map((invitation) => (
                <li key={invitation.id}>{invitationText(invitation)}</li>
              ))}
            </Invitations>
          )}
          {state.error && <Alert>{state.error}</Alert>}
          {state.invitations?.length === 0 ? (
            state.memberships.flatMap(({ manage }) =>
              manage ? [<ManageLink key={manage.path} manage={manage} />] : [],
            )
          ) : (
            <Button $block disabled={state.busy} onClick={() => void accept()}>
              {state.busy ? 'Aceptando...' : 'Aceptar invitación'}
            </Button>
          )}
          <AppsLink />
        </AuthLayout>
      );
    default:
      return (
        <AuthLayout title={INVITATION_TITLE}>
          <Spinner label={TEXT.loading} />
        </AuthLayout>
      );
  }
}
