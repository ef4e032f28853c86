/** @jest-environment-options {"url": "http://127.0.0.1:8080/perfil?tab=seguridad"} */
// 'Llaves de acceso' on a page opened at an IP address: browsers refuse passkeys there, whatever the server says.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startRegistration } from '@simplewebauthn/browser';
import { type Passkey, useSession } from '@portal/shared';
import { renderAt, useFakeApi, user, type FakeApi } from '../../../testing/render';
import { PasskeysSection } from './PasskeysSection';

jest.mock('@simplewebauthn/browser', () => ({
  browserSupportsWebAuthn: jest.fn(() => true),
  browserSupportsWebAuthnAutofill: jest.fn(async () => true),
  startAuthentication: jest.fn(),
  startRegistration: jest.fn(),
  WebAuthnAbortService: { cancelCeremony: jest.fn() },
}));

const passkeys: Passkey[] = [
  { id: 'llave-1', name: 'Mi portátil', createdAt: new Date().toISOString(), lastUsedAt: null, backedUp: false },
];
let api: FakeApi;
let stored: Passkey[];

beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  stored = [...passkeys];
  api = await useFakeApi({
    'GET /auth/passkeys': () => ({ status: 200, body: stored }),
    'DELETE /auth/passkeys/llave-1': () => {
      stored = [];
      return { status: 204 };
    },
  });
  await useSession.getState().startSession('tok', user());
});

afterEach(async () => {
  await api.close();
  jest.restoreAllMocks();
});

it('says why passkeys do not work here and where they do, and offers no way to add one', async () => {
  renderAt('/perfil', <PasskeysSection />);
  const note = await screen.findByText(/Las llaves de acceso no funcionan en una dirección IP\./);
  expect(note).toHaveTextContent(
    'Las llaves de acceso no funcionan en una dirección IP. Abre el portal en http://localhost:8080 para usarlas.',
  );
  expect(within(note).getByRole('link', { name: 'http://localhost:8080' })).toHaveAttribute(
    'href',
    'http://localhost:8080/perfil?tab=seguridad',
  );
  expect(screen.queryByRole('button', { name: 'Agregar llave de acceso' })).not.toBeInTheDocument();
  expect(screen.queryByText('Este navegador no admite llaves de acceso')).not.toBeInTheDocument();
  expect(startRegistration).not.toHaveBeenCalled();
  // The list has arrived: nothing is left in flight when the test ends.
  expect(await screen.findAllByTestId('llave')).toHaveLength(1);
});

it('the passkeys already made are listed, and can still be removed from here', async () => {
  renderAt('/perfil', <PasskeysSection />);
  const [item] = await screen.findAllByTestId('llave');
  await userEvent.click(within(item!).getByRole('button', { name: 'Eliminar' }));
  await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Eliminar' }));
  expect(await screen.findByText('Llave de acceso eliminada')).toBeInTheDocument();
  // The list is read again after the removal: it comes back without the key.
  await waitFor(() => expect(screen.queryAllByTestId('llave')).toHaveLength(0));
});
