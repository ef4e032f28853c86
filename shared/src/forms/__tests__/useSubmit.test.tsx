import { act, renderHook } from '@testing-library/react';
import { useSubmit } from '../useSubmit';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('useSubmit', () => {
  it('refuses a form with a problem without calling', async () => {
    const { result } = renderHook(() => useSubmit());
    const call = jest.fn();
    let sent = true;
    await act(async () => {
      sent = await result.current.submit({ problem: 'El email es requerido', call, failure: () => 'x' });
    });
    expect(sent).toBe(false);
    expect(call).not.toHaveBeenCalled();
    expect(result.current.message).toEqual({ tone: 'error', text: 'El email es requerido' });
    expect(result.current.busy).toBe(false);
  });

  it('is busy during the call, ignores a second send, and shows the success text', async () => {
    const { result } = renderHook(() => useSubmit());
    const pending = deferred<{ message: string }>();
    const call = jest.fn(() => pending.promise);
    let first: Promise<boolean> = Promise.resolve(false);
    act(() => {
      first = result.current.submit({ call, success: ({ message }) => message, failure: () => 'x' });
    });
    expect(result.current.busy).toBe(true);
    await act(async () => {
      expect(await result.current.submit({ call, failure: () => 'x' })).toBe(false);
    });
    expect(call).toHaveBeenCalledTimes(1);
    await act(async () => {
      pending.resolve({ message: 'Código enviado' });
      expect(await first).toBe(true);
    });
    expect(result.current.message).toEqual({ tone: 'success', text: 'Código enviado' });
    // 'done': the form is moving on, so it stays busy.
    expect(result.current.busy).toBe(true);
  });

  it("'ready' frees the form after a success", async () => {
    const { result } = renderHook(() => useSubmit());
    await act(async () => {
      await result.current.submit({ call: async () => 1, failure: () => 'x', afterSuccess: 'ready' });
    });
    expect(result.current.busy).toBe(false);
    expect(result.current.message).toBeNull();
  });

  it('shows the failure text and frees the form; null shows nothing', async () => {
    const { result } = renderHook(() => useSubmit());
    await act(async () => {
      await result.current.submit({
        call: () => Promise.reject(new Error('Credenciales inválidas')),
        failure: (caught) => (caught as Error).message,
      });
    });
    expect(result.current.message).toEqual({ tone: 'error', text: 'Credenciales inválidas' });
    expect(result.current.busy).toBe(false);

    const handled = jest.fn(() => null);
    await act(async () => {
      await result.current.submit({ call: () => Promise.reject(new Error('expirado')), failure: handled });
    });
    expect(handled).toHaveBeenCalled();
    expect(result.current.message).toBeNull();
    expect(result.current.busy).toBe(false);
  });

  it('sends the messages where it is told', async () => {
    const show = jest.fn();
    const { result } = renderHook(() => useSubmit(show));
    await act(async () => {
      await result.current.submit({ call: async () => 'ok', success: () => 'Guardado', failure: () => 'x' });
    });
    expect(show).toHaveBeenLastCalledWith({ tone: 'success', text: 'Guardado' });
    expect(result.current.message).toBeNull();
  });
});
