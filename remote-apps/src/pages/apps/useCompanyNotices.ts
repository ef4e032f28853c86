import { useCallback, useEffect, useState } from 'react';
import {
  acceptInvitation,
  declineInvitation,
  errorMessage,
  INVITATION_FALLBACK,
  joinedText,
  listMyInvitations,
  type MyInvitation,
  useSession,
} from '@portal/shared';

/** One pending invitation as the notice shows it: what is being done with it and what the last try said. */
export interface InvitationNotice {
  invitation: MyInvitation;
  busy: 'accept' | 'decline' | null;
  error: string | null;
}

/**
 * The pending invitations to the person's address, and answering them from /apps. After an acceptance the session's
 * user is loaded again, so the seats the company gives show at once.
 */
export function useCompanyNotices() {
  const signedIn = useSession((s) => s.isAuthenticated);
  const [notices, setNotices] = useState<InvitationNotice[]>([]);
  const [joined, setJoined] = useState<string | null>(null);

  useEffect(() => {
    if (!signedIn) return;
    let current = true;
    // A notice the API cannot list is no reason to trouble the apps home: it shows next time.
    listMyInvitations().then(
      (invitations) =>
        current &&
        Array.isArray(invitations) &&
        setNotices(invitations.map((invitation) => ({ invitation, busy: null, error: null }))),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [signedIn]);

  const update = (id: number, change: Partial<InvitationNotice>) =>
    setNotices((shown) => shown.map((notice) => (notice.invitation.id === id ? { ...notice, ...change } : notice)));
  const remove = (id: number) => setNotices((shown) => shown.filter((notice) => notice.invitation.id !== id));

  const accept = useCallback(async (id: number) => {
    update(id, { busy: 'accept', error: null });
    try {
      const accepted = await acceptInvitation({ idInvitacion: id });
      remove(id);
      setJoined(joinedText(accepted));
      await useSession
        .getState()
        .loadCurrentUser()
        .catch(() => undefined);
    } catch (caught) {
      update(id, { busy: null, error: errorMessage(caught, INVITATION_FALLBACK.accept) });
    }
  }, []);

  const decline = useCallback(async (id: number) => {
    update(id, { busy: 'decline', error: null });
    try {
      await declineInvitation(id);
      remove(id);
    } catch (caught) {
      update(id, { busy: null, error: errorMessage(caught, INVITATION_FALLBACK.decline) });
    }
  }, []);

  return { notices, joined, accept, decline };
}
