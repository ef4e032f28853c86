import { useCallback, useEffect, useState } from 'react';
import { errorMessage, FALLBACK, useSession } from '@portal/shared';
import { updatePresentation } from '../../api/presentation';

/**
 * Spec §4: the presentation opens once per session when the user's `presentacion` is true; finishing records it
 * as seen on the server and stores the updated user. Dismissing it (Escape, a click outside) records it too, in the
 * background: someone who waved it away does not want it every session. 'Anterior' on the first step only closes it
 * for this session (spec §4; docs/decisions/0031-presentation.md).
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

  const close = useCallback(() => setOpen(false), []);

  const dismiss = useCallback(() => {
    setOpen(false);
    if (!user) return;
    // The dialog is gone already: a failure only leaves the presentation for the next session.
    updatePresentation(user.id).then(
      (answer) => setUser(answer?.user ?? { ...user, presentacion: false }),
      (error) => console.error(error),
    );
  }, [user, setUser]);

  const finish = useCallback(async () => {
    if (!user) return;
    try {
      const answer = await updatePresentation(user.id);
      setUser(answer?.user ?? { ...user, presentacion: false });
      setOpen(false);
    } catch (error) {
      throw new Error(errorMessage(error, FALLBACK.presentation));
    }
  }, [user, setUser]);

  return { open, close, dismiss, finish };
}
