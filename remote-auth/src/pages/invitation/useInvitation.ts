import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  acceptInvitation,
  alreadyMemberText,
  clearPendingInvitation,
  companyPagePath,
  errorMessage,
  INVITATION_FALLBACK,
  type InvitationLink,
  isInvitationLink,
  joinedText,
  listMyInvitations,
  managesWith,
  type MyInvitation,
  sameAddress,
  storePendingInvitation,
  useSession,
} from '@portal/shared';
import { invitationRegisterPath } from '../../rules/invitation';
import type { LoginNoticeState } from '../../rules/login-notice';

/** What /invitacion shows. */
export type InvitationState =
  | { step: 'invalid' }
  | { step: 'loading' }
  /** Nobody signed in: sign in with the invited address, or create the account with the invitation. */
  | { step: 'signed-out'; link: InvitationLink }
  /** Signed in with another address: the invitation is not theirs to accept. */
  | { step: 'other-account'; link: InvitationLink; signedInAs: string }
  /** Signed in with the invited address: the pending invitations (null when they could not be read). */
  | {
      step: 'ready';
      link: InvitationLink;
      invitations: MyInvitation[] | null;
      /** The companies the person already belongs to: an invitation accepted before is no longer pending. */
      memberships: { text: string; manage: CompanyLink | null }[];
      busy: boolean;
      error: string | null;
    }
  /** Accepted: what was joined, and where to manage it for an owner or administrator. */
  | { step: 'joined'; text: string; manage: CompanyLink | null };

/** A company the person manages, as a link to its page. */
export interface CompanyLink {
  label: string;
  path: string;
}

/** 'Administrar Minera Andina S.A.', to its page. */
const manageLink = (company: { id: number; nombre: string }): CompanyLink => ({
  label: `Administrar ${company.nombre}`,
  path: companyPagePath(company.id),
});

type Session = ReturnType<typeof useSession.getState>;
/** The session is known: start-up has checked a kept token (the page is public, so it renders before that). */
const sessionSettled = (s: Session) => s.isInitialized && !(s.isLoading && !s.user);

/**
 * /invitacion?codigo=…&email=…: the mail's link. Accepting is only for an account with the invited address (the API
 * refuses any other, with the same answer as a wrong code); the page says so before anyone tries.
 */
export function useInvitation(codigo: string | null, email: string | null) {
  const navigate = useNavigate();
  const ready = useSession(sessionSettled);
  const signedInAs = useSession((s) => (s.isAuthenticated && s.token ? (s.user?.email ?? null) : null));
  const link = { codigo, email: email?.trim() ?? null };
  const valid = isInvitationLink(link);
  const [invitations, setInvitations] = useState<MyInvitation[] | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [joined, setJoined] = useState<{ text: string; manage: CompanyLink | null } | null>(null);
  const companies = useSession((s) => s.user?.empresas);
  const own = valid && sameAddress(signedInAs, link.email);

  useEffect(() => {
    if (!ready || !own) return;
    let current = true;
    listMyInvitations().then(
      (found) => current && setInvitations(Array.isArray(found) ? found : null),
      () => current && setInvitations(null),
    );
    return () => {
      current = false;
    };
  }, [ready, own]);

  const accept = useCallback(async () => {
    if (!isInvitationLink(link)) return;
    setBusy(true);
    setError(null);
    try {
      const accepted = await acceptInvitation({ codigo: link.codigo });
      clearPendingInvitation();
      await useSession
        .getState()
        .loadCurrentUser()
        .catch(() => undefined);
      setJoined({
        text: joinedText(accepted),
        manage: managesWith(accepted.rol) ? manageLink(accepted.empresa) : null,
      });
    } catch (caught) {
      setError(errorMessage(caught, INVITATION_FALLBACK.accept));
    } finally {
      setBusy(false);
    }
  }, [link.codigo, link.email]);

  /** To /login with the invited address typed; the tab keeps the link, and the sign-in lands back here. */
  const signIn = useCallback(() => {
    if (!isInvitationLink(link)) return;
    storePendingInvitation(link);
    const state: LoginNoticeState = {
      email: link.email,
      message: `Inicia sesión con ${link.email} para aceptar la invitación.`,
      tone: 'info',
    };
    navigate('/login', { state });
  }, [navigate, link.codigo, link.email]);

  /** To /register with the address and the code: the invitation proves the address, so no emailed code follows. */
  const register = useCallback(() => {
    if (!isInvitationLink(link)) return;
    storePendingInvitation(link);
    navigate(invitationRegisterPath(link));
  }, [navigate, link.codigo, link.email]);

  /** Ends this session; the page then shows the signed-out choices for the invited address. */
  const switchAccount = useCallback(() => useSession.getState().logout(), []);

  let state: InvitationState;
  if (!isInvitationLink(link)) state = { step: 'invalid' };
  else if (joined) state = { step: 'joined', ...joined };
  else if (!ready) state = { step: 'loading' };
  else if (!signedInAs) state = { step: 'signed-out', link };
  else if (!own) state = { step: 'other-account', link, signedInAs };
  else if (invitations === undefined) state = { step: 'loading' };
  else {
    const memberships = (companies ?? [])
      .filter((company) => company.estado === 'activo')
      .map((company) => ({
        text: alreadyMemberText(company),
        manage: managesWith(company.rol) ? manageLink(company) : null,
      }));
    state = { step: 'ready', link, invitations, memberships, busy, error };
  }
  return { state, accept, signIn, register, switchAccount };
}
