import { afterFirstPaint } from '../after-first-paint';

type PaintCallback = (list: { getEntriesByName: (name: string) => unknown[] }) => void;

describe('starting after the first paint', () => {
  let observed: PaintCallback | undefined;
  const original = globalThis.PerformanceObserver;

  beforeEach(() => {
    jest.useFakeTimers();
    observed = undefined;
    class FakeObserver {
      static supportedEntryTypes = ['paint'];
      constructor(callback: PaintCallback) {
        observed = callback;
      }
      observe() {}
      disconnect() {}
    }
    globalThis.PerformanceObserver = FakeObserver as unknown as typeof PerformanceObserver;
  });
  afterEach(() => {
    jest.useRealTimers();
    globalThis.PerformanceObserver = original;
  });

  const paint = (name: string) => observed?.({ getEntriesByName: (wanted) => (wanted === name ? [{}] : []) });

  it('starts once the first contentful paint is reported, and only once', () => {
    const start = jest.fn();
    afterFirstPaint(start);
    paint('first-paint');
    expect(start).not.toHaveBeenCalled();
    paint('first-contentful-paint');
    paint('first-contentful-paint');
    jest.runAllTimers();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts anyway when no paint is reported', () => {
    const start = jest.fn();
    afterFirstPaint(start, 500);
    jest.advanceTimersByTime(499);
    expect(start).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts at once on a hidden page, which gets no paint', () => {
    const visibility = jest.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const start = jest.fn();
    afterFirstPaint(start);
    expect(start).toHaveBeenCalledTimes(1);
    visibility.mockRestore();
  });
});
