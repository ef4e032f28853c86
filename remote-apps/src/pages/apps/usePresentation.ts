import { useCallback, useEffect, useState } from 'react';
import { errorMessage, FALLBACK, useSession } from '@portal/shared';
import { updatePresentation } from '../../api/presentation';

/**
 * Spec §4: the presentation opens once per session when the user's `presentacion` is true; finishing records it
 * as seen on the server and stores the updated user. Dismissing it (Escape, a click outside) records it too, in the
 * background: someone who waved it away does not want it every session (docs/decisions/0031-presentation.md). No
 * button closes it without a word: 'Anterior' is not on the first step (docs/decisions/0130).
 */
export function usePresentation() {
  const user = useSession((s) => s.user);
  const alreadyShown = useSession((s) => s.hasShownPresentationModal);
  const markShown = useSession((s) => s.markPresentationShown);
  const setUser = useSession((s) => s.setUser);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (user?.presentacion && !alreadyShown) {
      setOpen(true);
      markShown();
    }
  }, [user, alreadyShown, markShown]);

  /** Records the presentation as seen on the server and stores the user it answers. */
  const recordSeen = useCallback(async () => {
    if (!user) return;
    const answer = await updatePresentation(user.id);
    setUser(answer?.user ?? { ...user, presentacion: false });
  }, [user, setUser]);

  const dismiss = useCallback(() => {
    setOpen(false);
    // The dialog is gone already: a failure only leaves the presentation for the next session.
    recordSeen().catch((error) => console.error(error));
  }, [recordSeen]);

  const finish = useCallback(async () => {
    try {
      await recordSeen();
      setOpen(false);
    } catch (error) {
      throw new Error(errorMessage(error, FALLBACK.presentation));
    }
  }, [recordSeen]);

  return { open, dismiss, finish };
}
