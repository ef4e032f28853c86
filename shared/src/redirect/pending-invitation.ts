/**
 * An invitation to a company this tab is on the way to accept: the person opened the mail's link
 * (`/invitacion?codigo=…&email=…`) signed out and chose 'Iniciar sesión'. The tab keeps the link while they sign in
 * (however they do it), and the one landing decision (sign-in-landing.ts) brings them back to /invitacion.
 */

import { forgetInTab, keepInTab, takeFromTab } from './kept-in-tab';

export const INVITATION_PATH = '/invitacion';

/** Where this tab keeps the invitation (sessionStorage: this tab only, gone with it). */
export const PENDING_INVITATION_KEY = 'portal-invitation';

/** A sign-in takes minutes, not days: an older kept link is not worth coming back to. */
export const PENDING_INVITATION_TTL_MS = 60 * 60 * 1000;

/** The mail's link: the invitation's 6-digit code and the address it was sent to. */
export interface InvitationLink {
  codigo: string;
  email: string;
}

const CODE = /^\d{6}$/;

/** Whether a code and an address can be an invitation's: anything else is never sent to the API nor kept. */
export function isInvitationLink(link: { codigo?: string | null; email?: string | null }): link is InvitationLink {
  const email = link.email?.trim() ?? '';
  return CODE.test(link.codigo ?? '') && email.length > 2 && email.length <= 254 && email.includes('@');
}

/** /invitacion for this link. */
export function invitationPath({ codigo, email }: InvitationLink): string {
  return `${INVITATION_PATH}?codigo=${encodeURIComponent(codigo)}&email=${encodeURIComponent(email)}`;
}

/** Keeps the link for this tab's next sign-in. */
export function storePendingInvitation(link: InvitationLink, now: number = Date.now()): void {
  if (isInvitationLink(link)) keepInTab(PENDING_INVITATION_KEY, link, now);
}

/** Forgets the link: the invitation was accepted, or the person registered with it. */
export function clearPendingInvitation(): void {
  forgetInTab(PENDING_INVITATION_KEY);
}

/** The link this tab kept, removed as it is read; null if none or too old. */
export function takePendingInvitation(now: number = Date.now()): InvitationLink | null {
  return takeFromTab(
    PENDING_INVITATION_KEY,
    PENDING_INVITATION_TTL_MS,
    ({ codigo, email }) =>
      typeof codigo === 'string' && typeof email === 'string' && isInvitationLink({ codigo, email })
        ? { codigo, email }
        : null,
    now,
  );
}
