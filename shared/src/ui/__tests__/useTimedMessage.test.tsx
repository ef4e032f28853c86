import { act, renderHook } from '@testing-library/react';
import { useTimedMessage } from '../useTimedMessage';

describe('useTimedMessage', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('clears the message after its time, and a new message restarts the clock', () => {
    const { result } = renderHook(() => useTimedMessage(5000));
    act(() => result.current[1]({ tone: 'success', text: 'Plan actualizado exitosamente!' }));
    act(() => jest.advanceTimersByTime(4000));
    act(() => result.current[1]({ tone: 'error', text: 'Otro' }));
    act(() => jest.advanceTimersByTime(4000));
    expect(result.current[0]).toEqual({ tone: 'error', text: 'Otro' });
    act(() => jest.advanceTimersByTime(1000));
    expect(result.current[0]).toBeNull();
  });

  it('null clears the message at once', () => {
    const { result } = renderHook(() => useTimedMessage(5000));
    act(() => result.current[1]({ tone: 'info', text: 'Enviado' }));
    act(() => result.current[1](null));
    expect(result.current[0]).toBeNull();
  });
});
