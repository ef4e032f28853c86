// A dialog gives the focus back to what opened it on closing, also when its button lost the focus while the dialog's
// data was read (a browser blurs a button that is disabled meanwhile).
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Modal } from '../Modal';

function RolesButton() {
  const [open, setOpen] = useState(false);
  const [reading, setReading] = useState(false);
  const start = async (button: HTMLButtonElement) => {
    setReading(true);
    // What Chromium does to a focused button that becomes disabled.
    button.blur();
    await new Promise((resolve) => setTimeout(resolve, 10));
    setReading(false);
    setOpen(true);
  };
  return (
    <main>
      <h1>Empresa</h1>
      <button type="button" disabled={reading} onClick={(event) => void start(event.currentTarget)}>
        Roles
      </button>
      {open && (
        <Modal title="Roles de Ana" onClose={() => setOpen(false)}>
          <button type="button" onClick={() => setOpen(false)}>
            Cancelar
          </button>
        </Modal>
      )}
    </main>
  );
}

describe('Modal', () => {
  it('gives the focus back to its button after the button lost it while the dialog was being opened', async () => {
    const user = userEvent.setup();
    render(<RolesButton />);
    const opener = screen.getByRole('button', { name: 'Roles' });
    await user.click(opener);
    await user.click(await screen.findByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
  });
});
