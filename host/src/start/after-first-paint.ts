/**
 * Runs `start` once the browser has shown the page's first contentful paint: the prerendered page (or the splash) is
 * on screen before the shell's scripts are even asked for (docs/decisions/0063-scripts-after-the-first-paint.md).
 * The paint entry is reported once the frame has been presented, so nothing `start` fetches can come before it; a
 * frame's `requestAnimationFrame` would run before the frame is drawn. A hidden page gets no paint: it starts at once,
 * or as soon as it is hidden. Where paint timing is missing, one frame and a task stand in for it, and `fallbackMs`
 * after the call it starts whatever happened (a paint that is never reported must not keep the page from working).
 */
export function afterFirstPaint(start: () => void, fallbackMs = 1000): void {
  let started = false;
  let observer: PerformanceObserver | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const once = () => {
    if (started) return;
    started = true;
    document.removeEventListener('visibilitychange', once);
    observer?.disconnect();
    clearTimeout(timer);
    start();
  };
  if (document.visibilityState === 'hidden') {
    once();
    return;
  }
  document.addEventListener('visibilitychange', once);
  timer = setTimeout(once, fallbackMs);
  if (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) once();
    });
    observer.observe({ type: 'paint', buffered: true });
    return;
  }
  requestAnimationFrame(() => setTimeout(once, 0));
}
