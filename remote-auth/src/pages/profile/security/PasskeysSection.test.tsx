import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { type Passkey, useSession } from '@portal/shared';
import { renderAt, useFakeApi, user, type FakeApi } from '../../../testing/render';
import { PasskeysSection } from './PasskeysSection';

// jsdom has no WebAuthn: the library is faked here; Chromium runs the real one with a virtual authenticator (e2e).
jest.mock('@simplewebauthn/browser', () => ({
  browserSupportsWebAuthn: jest.fn(() => true),
  browserSupportsWebAuthnAutofill: jest.fn(async () => false),
  startAuthentication: jest.fn(),
  startRegistration: jest.fn(),
  WebAuthnAbortService: { cancelCeremony: jest.fn() },
}));

const CEREMONY = 'ceremonia-de-registro-00001';
const ATTESTATION = { id: 'nueva', rawId: 'nueva', type: 'public-key', response: {}, clientExtensionResults: {} };
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
let api: FakeApi;
let passkeys: Passkey[];

beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  jest.mocked(browserSupportsWebAuthn).mockReturnValue(true);
  jest.mocked(startRegistration).mockReset();
  passkeys = [
    { id: 'llave-1', name: 'Mi portátil', createdAt: minutesAgo(3000), lastUsedAt: minutesAgo(5), backedUp: true },
    { id: 'llave-2', name: 'Llave USB', createdAt: minutesAgo(60), lastUsedAt: null, backedUp: false },
  ];
  api = await useFakeApi({
    'GET /auth/passkeys': () => ({ status: 200, body: passkeys }),
    'POST /auth/passkeys/opciones-registro': {
      status: 200,
      body: { ceremonyId: CEREMONY, options: { challenge: 'reto', rp: { name: 'Portal' } } },
    },
    'POST /auth/passkeys': (req) => {
      const { name } = JSON.parse(req.body) as { name: string };
      const added = { id: 'llave-3', name, createdAt: new Date().toISOString(), lastUsedAt: null, backedUp: false };
      passkeys = [...passkeys, added];
      return { status: 201, body: added };
    },
    'DELETE /auth/passkeys/llave-2': () => {
      passkeys = passkeys.filter((p) => p.id !== 'llave-2');
      return { status: 204 };
    },
  });
  await useSession.getState().startSession('tok', user());
});

afterEach(async () => {
  await api.close();
  jest.restoreAllMocks();
});

it('lists the passkeys with their dates and the Sincronizada badge', async () => {
  renderAt('/perfil', <PasskeysSection />);
  expect(screen.getByRole('heading', { name: 'Llaves de acceso' })).toBeInTheDocument();
  const list = await screen.findByRole('list', { name: 'Llaves de acceso' });
  const items = within(list).getAllByRole('listitem');
  expect(items).toHaveLength(2);
  expect(within(items[0]!).getByText('Mi portátil')).toBeInTheDocument();
  expect(within(items[0]!).getByText('Sincronizada')).toBeInTheDocument();
  expect(within(items[0]!).getByText('Último uso: hace 5 minutos')).toBeInTheDocument();
  expect(within(items[0]!).getByText(/^Creada el /)).toBeInTheDocument();
  expect(within(items[1]!).getByText('Sin usar todavía')).toBeInTheDocument();
  expect(within(items[1]!).queryByText('Sincronizada')).not.toBeInTheDocument();
});

it('adds a passkey: a name, the ceremony, then the POST with the browser answer', async () => {
  jest.mocked(startRegistration).mockResolvedValue(ATTESTATION as never);
  renderAt('/perfil', <PasskeysSection />);
  await screen.findByRole('list', { name: 'Llaves de acceso' });
  await userEvent.click(await screen.findByRole('button', { name: 'Agregar llave de acceso' }));
  const name = screen.getByLabelText('Nombre de la llave');
  expect(name).toHaveAttribute('maxlength', '60');
  expect(name).toBeRequired();
  expect(screen.getByText(/Mi portátil/, { selector: 'p[id$="-hint"]' })).toBeInTheDocument();

  await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
  expect(screen.getByText('Escribe un nombre para la llave')).toBeInTheDocument();
  expect(startRegistration).not.toHaveBeenCalled();

  await userEvent.type(name, '  Teléfono de Ana ');
  await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
  expect(await screen.findByText('Llave de acceso agregada')).toBeInTheDocument();
  expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: { challenge: 'reto', rp: { name: 'Portal' } } });
  const post = api.requests.find((r) => r.method === 'POST' && r.path === '/auth/passkeys');
  expect(JSON.parse(post?.body ?? 'null')).toEqual({
    ceremonyId: CEREMONY,
    name: 'Teléfono de Ana',
    response: ATTESTATION,
  });
  await waitFor(() => expect(screen.getAllByTestId('llave')).toHaveLength(3));
  expect(screen.getByText('Teléfono de Ana')).toBeInTheDocument();
});

it('a cancelled ceremony says so and sends nothing', async () => {
  jest
    .mocked(startRegistration)
    .mockRejectedValue(
      Object.assign(new Error('The operation either timed out or was not allowed'), { name: 'NotAllowedError' }),
    );
  renderAt('/perfil', <PasskeysSection />);
  await userEvent.click(await screen.findByRole('button', { name: 'Agregar llave de acceso' }));
  await userEvent.type(screen.getByLabelText('Nombre de la llave'), 'Mi portátil');
  await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Se canceló la operación');
  expect(api.requests.some((r) => r.method === 'POST' && r.path === '/auth/passkeys')).toBe(false);
});

it("shows the API's message when the passkey is refused", async () => {
  jest.mocked(startRegistration).mockResolvedValue(ATTESTATION as never);
  await api.close();
  api = await useFakeApi({
    'GET /auth/passkeys': { status: 200, body: [] },
    'POST /auth/passkeys/opciones-registro': { status: 200, body: { ceremonyId: CEREMONY, options: {} } },
    'POST /auth/passkeys': {
      status: 409,
      body: { statusCode: 409, message: 'Esta llave de acceso ya está registrada', code: 'PASSKEY_EXISTS' },
    },
  });
  await useSession.getState().startSession('tok', user());
  renderAt('/perfil', <PasskeysSection />);
  await userEvent.click(await screen.findByRole('button', { name: 'Agregar llave de acceso' }));
  await userEvent.type(screen.getByLabelText('Nombre de la llave'), 'Mi portátil');
  await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Esta llave de acceso ya está registrada');
});

it('deletes a passkey only after confirming in a dialog; Cancelar and Escape keep it', async () => {
  renderAt('/perfil', <PasskeysSection />);
  const items = await screen.findAllByTestId('llave');
  const remove = within(items[1]!).getByRole('button', { name: 'Eliminar' });

  await userEvent.click(remove);
  let dialog = screen.getByRole('dialog', { name: 'Eliminar llave de acceso' });
  expect(dialog).toHaveTextContent('¿Eliminar la llave de acceso «Llave USB»?');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

  await userEvent.click(remove);
  await userEvent.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(api.requests.some((r) => r.method === 'DELETE')).toBe(false);

  await userEvent.click(remove);
  dialog = screen.getByRole('dialog', { name: 'Eliminar llave de acceso' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
  expect(await screen.findByText('Llave de acceso eliminada')).toBeInTheDocument();
  await waitFor(() => expect(screen.getAllByTestId('llave')).toHaveLength(1));
  expect(screen.queryByText('Llave USB')).not.toBeInTheDocument();
  expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/auth/passkeys/llave-2']);
});

it("refuses to delete an administrator's last factor with the API's message", async () => {
  await api.close();
  api = await useFakeApi({
    'GET /auth/passkeys': { status: 200, body: passkeys.slice(1) },
    'DELETE /auth/passkeys/llave-2': {
      status: 409,
      body: {
        statusCode: 409,
        message: 'Un administrador debe conservar un segundo factor: agrega otro antes de quitar este',
        code: 'LAST_SECOND_FACTOR',
      },
    },
  });
  await useSession.getState().startSession('tok', user());
  renderAt('/perfil', <PasskeysSection />);
  const [item] = await screen.findAllByTestId('llave');
  await userEvent.click(within(item!).getByRole('button', { name: 'Eliminar' }));
  await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Eliminar' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'Un administrador debe conservar un segundo factor: agrega otro antes de quitar este',
  );
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(screen.getAllByTestId('llave')).toHaveLength(1);
});

it('without WebAuthn: says so, and no button to add', async () => {
  jest.mocked(browserSupportsWebAuthn).mockReturnValue(false);
  renderAt('/perfil', <PasskeysSection />);
  expect(await screen.findByText('Este navegador no admite llaves de acceso')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Agregar llave de acceso' })).not.toBeInTheDocument();
});

it.each([
  [
    'InvalidStateError',
    'No se pudo agregar la llave de acceso: este dispositivo ya guarda una llave de acceso de tu cuenta.',
  ],
  [
    'SecurityError',
    'No se pudo agregar la llave de acceso: el navegador no permite llaves de acceso del portal en esta dirección.',
  ],
  ['UnknownError', 'No se pudo agregar la llave de acceso'],
])('a ceremony the browser refuses with %s says why when the browser said it', async (name, message) => {
  jest.mocked(startRegistration).mockRejectedValue(Object.assign(new Error('in English'), { name }));
  renderAt('/perfil', <PasskeysSection />);
  await userEvent.click(await screen.findByRole('button', { name: 'Agregar llave de acceso' }));
  await userEvent.type(screen.getByLabelText('Nombre de la llave'), 'Mi portátil');
  await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(new RegExp(`^${message.replace('.', '\\.')}$`));
  expect(api.requests.some((r) => r.method === 'POST' && r.path === '/auth/passkeys')).toBe(false);
});

it('on a host name (localhost) the section offers to add a passkey and explains nothing', async () => {
  renderAt('/perfil', <PasskeysSection />);
  expect(await screen.findByRole('button', { name: 'Agregar llave de acceso' })).toBeInTheDocument();
  expect(screen.queryByText(/dirección IP/)).not.toBeInTheDocument();
});
