import { act, fireEvent, render, screen } from '@testing-library/react';
import { COPIED_SHOWN_MS, CopyButton } from '../CopyButton';

describe('Copiar', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("says 'Copiado' beside the button for a few seconds, then nothing: the button always reads 'Copiar'", async () => {
    const writeText = jest.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<CopyButton text="portal-verificacion=abc" label="Copiar el registro TXT" />);
    const button = screen.getByRole('button', { name: 'Copiar el registro TXT' });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(writeText).toHaveBeenCalledWith('portal-verificacion=abc');
    expect(screen.getByRole('status')).toHaveTextContent('Copiado');
    expect(button).toHaveTextContent('Copiar');
    act(() => jest.advanceTimersByTime(COPIED_SHOWN_MS - 1));
    expect(screen.getByRole('status')).toHaveTextContent('Copiado');
    act(() => jest.advanceTimersByTime(1));
    expect(screen.getByRole('status')).toHaveTextContent('');
  });
});
