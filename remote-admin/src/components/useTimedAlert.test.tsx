import { act, renderHook } from '@testing-library/react';
import { useTimedAlert } from './useTimedAlert';

describe('useTimedAlert', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('clears the message after 5 s, and a new message restarts the clock', () => {
    const { result } = renderHook(() => useTimedAlert());
    act(() => result.current[1]('success', 'Plan actualizado exitosamente!'));
    act(() => jest.advanceTimersByTime(4000));
    act(() => result.current[1]('error', 'Otro'));
    act(() => jest.advanceTimersByTime(4000));
    expect(result.current[0]).toEqual({ tone: 'error', text: 'Otro' });
    act(() => jest.advanceTimersByTime(1000));
    expect(result.current[0]).toBeNull();
  });
});
