import { useState } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GetAppDialog } from '../GetAppDialog';
import { storeLinks } from '../launch';

const BETO = {
  nombre: 'Beto Pro',
  androidUrl: 'https://play.google.com/store/apps/details?id=com.portal.betopro',
  iosUrl: 'https://apps.apple.com/app/beto-pro/id123456',
};

/** A page with the card's button that opens the dialog, as the apps home does. */
function Opener({ app = BETO }: { app?: typeof BETO }) {
  const [open, setOpen] = useState(false);
  return (
    <main>
      <h1>Aplicaciones</h1>
      <button type="button" onClick={() => setOpen(true)}>
        Abrir {app.nombre}
      </button>
      {open && <GetAppDialog app={app} stores={storeLinks(app)} onClose={() => setOpen(false)} />}
    </main>
  );
}

beforeEach(() => {
  // jsdom lays nothing out: give every element a box, so the dialog's Tab rule sees its links and buttons.
  jest.spyOn(HTMLElement.prototype, 'getClientRects').mockReturnValue([{}] as unknown as DOMRectList);
});

afterEach(() => jest.restoreAllMocks());

async function openDialog(app = BETO) {
  render(<Opener app={app} />);
  await userEvent.click(screen.getByRole('button', { name: `Abrir ${app.nombre}` }));
  return screen.getByRole('dialog', { name: `Descarga ${app.nombre} en tu teléfono` });
}

it('says in Spanish where to get the app: each store as a real link and a QR code of that link', async () => {
  const dialog = await openDialog();
  expect(dialog).toHaveAttribute('aria-modal', 'true');
  expect(dialog).toHaveTextContent('Escanea el código con tu teléfono');
  // The portal's Spanish is Peru's: the desktop is a 'computadora', never an 'ordenador'.
  expect(dialog).toHaveTextContent('no se abre en el navegador de la computadora');
  expect(dialog).not.toHaveTextContent(/ordenador/i);

  const stores = within(dialog).getByRole('list', { name: 'Tiendas' });
  expect(
    within(stores)
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent),
  ).toEqual(['Google Play', 'App Store']);
  const play = within(dialog).getByRole('link', { name: /^Abrir en Google Play/ });
  expect(play).toHaveAttribute('href', BETO.androidUrl);
  expect(play).toHaveAttribute('target', '_blank');
  expect(play).toHaveAttribute('rel', 'noopener noreferrer');
  expect(within(dialog).getByRole('link', { name: /^Abrir en App Store/ })).toHaveAttribute('href', BETO.iosUrl);

  const codes = await within(dialog).findAllByRole('img', { name: /^Código QR del enlace de Beto Pro en / });
  expect(codes.map((code) => code.getAttribute('alt'))).toEqual([
    'Código QR del enlace de Beto Pro en Google Play',
    'Código QR del enlace de Beto Pro en App Store',
  ]);
  for (const code of codes) {
    const src = code.getAttribute('src') ?? '';
    expect(src.startsWith('data:image/svg+xml;charset=utf-8,')).toBe(true);
    expect(decodeURIComponent(src)).toContain('<svg');
  }
});

it('shows only the stores the app has', async () => {
  const dialog = await openDialog({ ...BETO, iosUrl: '' });
  expect(within(dialog).getByRole('link', { name: /^Abrir en Google Play/ })).toBeInTheDocument();
  expect(within(dialog).queryByRole('link', { name: /App Store/ })).not.toBeInTheDocument();
});

it('takes the focus, keeps Tab inside, and gives it back to the button on Escape', async () => {
  const dialog = await openDialog();
  expect(dialog).toContainElement(document.activeElement as HTMLElement);

  const close = within(dialog).getByRole('button', { name: 'Cerrar' });
  const first = within(dialog).getByRole('link', { name: /^Abrir en Google Play/ });
  await userEvent.tab();
  expect(first).toHaveFocus();
  await userEvent.tab();
  await userEvent.tab();
  expect(close).toHaveFocus();
  await userEvent.tab();
  expect(first).toHaveFocus();
  await userEvent.tab({ shift: true });
  expect(close).toHaveFocus();

  await userEvent.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Abrir Beto Pro' })).toHaveFocus();
});

it("closes with 'Cerrar' and gives the focus back to the button", async () => {
  const dialog = await openDialog();
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Abrir Beto Pro' })).toHaveFocus();
});
