import type { AcceptedInvitation, MyInvitation } from '../types/entities';
import { request } from './client';
import { API_PATHS } from '@portal/contracts/api/paths';

export const INVITATION_FALLBACK = {
  list: 'No se pudieron obtener tus invitaciones',
  accept: 'No se pudo aceptar la invitación',
  decline: 'No se pudo rechazar la invitación',
} as const;

/** The pending invitations to the signed-in person's address. */
export function listMyInvitations(): Promise<MyInvitation[]> {
  return request('get', API_PATHS.myInvitations.list, { fallback: INVITATION_FALLBACK.list });
}

/**
 * Accepts an invitation: by the mail's code (/invitacion) or by its id (the notice on /apps). The API accepts it
 * only for an account with the invited address; anything else is its Spanish INVITACION_INVALIDA.
 */
export function acceptInvitation(by: { codigo: string } | { idInvitacion: number }): Promise<AcceptedInvitation> {
  return request('post', API_PATHS.myInvitations.accept, { json: by, fallback: INVITATION_FALLBACK.accept });
}

export function declineInvitation(id: number): Promise<void> {
  return request('post', API_PATHS.myInvitations.decline(id), { fallback: INVITATION_FALLBACK.decline });
}
