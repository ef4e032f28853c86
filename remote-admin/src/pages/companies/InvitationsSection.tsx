import { useCallback, useMemo, useRef, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, errorMessage } from '@portal/shared';
import { invite, listInvitations, resendInvitation, revokeInvitation } from '../../api/companies';
import type { CompanyRole, Invitation, Licence } from '../../api/company-types';
import { COMPANY_FALLBACK } from '../../api/texts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormDialog, FormText } from '../../components/FormDialog';
import { LoadState } from '../../components/LoadState';
import { Panel } from '../../components/Page';
import { SelectField } from '../../components/SelectField';
import { StackedTable } from '../../components/StackedTable';
import { StatusPill } from '../../components/StatusPill';
import { useLoad } from '../../hooks/useLoad';
import { companyRoleLabel, grantableRoles } from '../../rules/companies';
import { InvitationListDialog } from './InvitationListDialog';
import { SectionHead, type SectionProps } from './SectionParts';
import { TEXT_COMPANY } from './texts';

const when = (iso: string) => new Date(iso).toLocaleDateString('es-ES');

/** The head's buttons side by side, wrapping under each other on a phone. */
const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px 12px;
`;

/**
 * Invitations: 'Invitar' (email and role), 'Invitar a varias personas' (a list, with an app's seat each), and each
 * pending one resent or revoked.
 */
export function InvitationsSection({
  companyId,
  viewer,
  announce,
  memberCount,
  licences,
}: SectionProps & { licences: Licence[] }) {
  const invitations = useLoad(() => listInvitations(companyId), COMPANY_FALLBACK.invitations, [companyId]);
  const [inviting, setInviting] = useState(false);
  const [listing, setListing] = useState(false);
  /** How many the list invited, told once its dialog closes. */
  const listInvited = useRef(0);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [rowError, setRowError] = useState<string | null>(null);
  const closeInvite = useCallback(() => setInviting(false), []);
  const closeRevoke = useCallback(() => setRevoking(null), []);
  const roles = grantableRoles(viewer);
  const apps = useMemo(() => licences.map((licence) => ({ ...licence.app, vencida: licence.vencida })), [licences]);
  const closeList = useCallback(() => {
    setListing(false);
    if (listInvited.current > 0) announce(TEXT_COMPANY.listSent(listInvited.current));
    listInvited.current = 0;
  }, [announce]);
  const { reload } = invitations;
  const listWasSent = useCallback(
    (invited: number) => {
      listInvited.current += invited;
      reload();
    },
    [reload],
  );

  const resend = async (invitation: Invitation) => {
    setBusyId(invitation.id);
    setRowError(null);
    try {
      await resendInvitation(companyId, invitation.id);
      announce(TEXT_COMPANY.resent(invitation.email));
      invitations.reload();
    } catch (failure) {
      setRowError(errorMessage(failure, COMPANY_FALLBACK.invitation));
    } finally {
      setBusyId(null);
    }
  };

  return (
    <Panel aria-labelledby="invitations-title">
      <SectionHead>
        <h2 id="invitations-title">{TEXT_COMPANY.invitations}</h2>
        <Actions>
          <Button $variant="secondary" onClick={() => setListing(true)}>
            {TEXT_COMPANY.inviteMany}
          </Button>
          <Button onClick={() => setInviting(true)}>{TEXT_COMPANY.invite}</Button>
        </Actions>
      </SectionHead>
      {rowError && <Alert>{rowError}</Alert>}
      <LoadState state={invitations} loading={TEXT_COMPANY.loadingInvitations} empty={TEXT_COMPANY.noInvitations}>
        {(list) => (
          <StackedTable
            aria-label={TEXT_COMPANY.invitationsTable}
            columns={[
              TEXT_COMPANY.email,
              TEXT_COMPANY.role,
              TEXT_COMPANY.colStatus,
              TEXT_COMPANY.colSent,
              TEXT_COMPANY.colExpires,
              TEXT_COMPANY.colActions,
            ]}
          >
            {list.map((invitation) => (
              <tr key={invitation.id}>
                <td className="lead">{invitation.email}</td>
                <td data-label={TEXT_COMPANY.role}>{companyRoleLabel(invitation.rol)}</td>
                <td data-label={TEXT_COMPANY.colStatus}>
                  <StatusPill
                    $tone={
                      invitation.estado === 'aceptada'
                        ? 'ok'
                        : invitation.estado === 'pendiente'
                          ? 'warning'
                          : 'neutral'
                    }
                  >
                    {TEXT_COMPANY.invitationStates[invitation.estado] ?? invitation.estado}
                  </StatusPill>
                </td>
                <td className="nowrap" data-label={TEXT_COMPANY.colSent}>
                  {when(invitation.enviadaEn)}
                </td>
                <td className="nowrap" data-label={TEXT_COMPANY.colExpires}>
                  {/* An accepted or revoked invitation expires no more. */}
                  {invitation.estado === 'pendiente' || invitation.estado === 'vencida' ? when(invitation.vence) : '—'}
                </td>
                <td className="actions">
                  {invitation.estado === 'pendiente' && (
                    <>
                      <Button
                        $variant="secondary"
                        disabled={busyId === invitation.id}
                        aria-label={TEXT_COMPANY.resendOf(invitation.email)}
                        onClick={() => void resend(invitation)}
                      >
                        {TEXT_COMPANY.resend}
                      </Button>
                      <Button
                        $variant="danger"
                        aria-label={TEXT_COMPANY.revokeOf(invitation.email)}
                        onClick={() => setRevoking(invitation)}
                      >
                        {TEXT_COMPANY.revoke}
                      </Button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </StackedTable>
        )}
      </LoadState>
      {inviting && (
        <FormDialog<{ email: string; rol: CompanyRole }>
          title={TEXT_COMPANY.inviteTitle}
          // A company with nobody in it yet is most likely inviting its owner.
          initial={{ email: '', rol: memberCount === 0 && roles.includes('propietario') ? 'propietario' : 'miembro' }}
          submitLabels={{ idle: TEXT_COMPANY.sendInvitation, busy: TEXT_COMPANY.sendingInvitation }}
          labels={{ email: TEXT_COMPANY.email, rol: TEXT_COMPANY.role }}
          validate={(form) => (form.email.trim() ? null : TEXT_COMPANY.emailRequired)}
          onSubmit={async (form) => {
            const sent = await invite(companyId, form.email.trim(), form.rol);
            setInviting(false);
            announce(TEXT_COMPANY.invited(sent.email));
            invitations.reload();
          }}
          onClose={closeInvite}
        >
          {({ bind, form, set, saving }) => (
            <>
              <FormText label={TEXT_COMPANY.email} hint={TEXT_COMPANY.inviteHint} {...bind('email')} />
              <SelectField
                id="invite-role"
                label={TEXT_COMPANY.role}
                value={form.rol}
                disabled={saving}
                options={roles.map((role) => ({ value: role, label: companyRoleLabel(role) }))}
                onChange={(value) => set('rol', value)}
              />
            </>
          )}
        </FormDialog>
      )}
      {listing && (
        <InvitationListDialog
          companyId={companyId}
          roles={roles}
          apps={apps}
          onSent={listWasSent}
          onClose={closeList}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title={TEXT_COMPANY.revokeTitle(revoking.email)}
          text={TEXT_COMPANY.revokeText}
          confirmLabel={TEXT_COMPANY.revoke}
          fallback={COMPANY_FALLBACK.invitation}
          onClose={closeRevoke}
          onConfirm={async () => {
            await revokeInvitation(companyId, revoking.id);
            setRevoking(null);
            announce(TEXT_COMPANY.revoked(revoking.email));
            invitations.reload();
          }}
        />
      )}
    </Panel>
  );
}
