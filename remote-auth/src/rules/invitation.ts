import { type InvitationLink, isInvitationLink, sameAddress } from '@portal/shared';

/** /register's parameter that carries an invitation's code (beside `email`, the invited address). */
export const INVITATION_CODE_PARAM = 'invitacion';

/** /register for an invitation: the address typed for the person, the code carried to the registration. */
export function invitationRegisterPath(link: InvitationLink): string {
  return `/register?email=${encodeURIComponent(link.email)}&${INVITATION_CODE_PARAM}=${encodeURIComponent(link.codigo)}`;
}

/** The invitation /register was opened with, or null when its address has none (or a malformed one). */
export function registrationInvitation(params: URLSearchParams): InvitationLink | null {
  const link = { codigo: params.get(INVITATION_CODE_PARAM), email: params.get('email')?.trim() ?? null };
  return isInvitationLink(link) ? link : null;
}

/**
 * The code sent with a registration: only for the invited address. Another address is an ordinary registration (its
 * emailed code proves it), never a refused one.
 */
export function invitationCodeFor(email: string, invitation: InvitationLink | null): string | undefined {
  return invitation && sameAddress(email, invitation.email) ? invitation.codigo : undefined;
}
