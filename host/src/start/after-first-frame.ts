/**
 * Runs `start` once the browser has produced its first frame: the prerendered page (or the splash) is painted before
 * the shell's scripts are evaluated, instead of after them (docs/decisions/0060-paint-before-scripts.md). The frame's
 * `requestAnimationFrame` comes just before it is painted; the task queued there runs after. A hidden page gets no
 * frame: it starts at once, or as soon as it is hidden.
 */
export function afterFirstFrame(start: () => void): void {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    document.removeEventListener('visibilitychange', once);
    start();
  };
  if (document.visibilityState === 'hidden') {
    once();
    return;
  }
  document.addEventListener('visibilitychange', once);
  requestAnimationFrame(() => setTimeout(once, 0));
}
