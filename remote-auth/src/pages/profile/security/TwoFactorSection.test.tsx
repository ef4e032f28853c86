import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type SecurityStatus, useSession } from '@portal/shared';
import { bodyOf, renderAt, useFakeApi, user, type FakeApi } from '../../../testing/render';
import { SecurityTab } from './SecurityTab';

// The section reads the tab's status (GET auth/seguridad): it is tested inside the tab, beside the other sections.
jest.mock('@simplewebauthn/browser', () => ({
  browserSupportsWebAuthn: jest.fn(() => true),
  browserSupportsWebAuthnAutofill: jest.fn(async () => false),
  startAuthentication: jest.fn(),
  startRegistration: jest.fn(),
  WebAuthnAbortService: { cancelCeremony: jest.fn() },
}));

const QR = 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DP';
const CODES = Array.from({ length: 10 }, (_, i) => `ABCD${i}-FGHJ${i}`);
const incorrect = {
  status: 400,
  body: { statusCode: 400, message: 'Código incorrecto', code: 'INVALID_SECOND_FACTOR' },
};
let api: FakeApi;
let status: SecurityStatus;

async function start(initial: Partial<SecurityStatus> = {}, routes: Parameters<typeof useFakeApi>[0] = {}) {
  status = {
    totp: false,
    passkeys: 0,
    recoveryCodesLeft: 0,
    secondFactorRequired: false,
    sessionVerified: false,
    sessionTrustedDevice: false,
    ...initial,
  };
  api = await useFakeApi({
    'GET /auth/seguridad': () => ({ status: 200, body: status }),
    'GET /auth/sessions': { status: 200, body: [] },
    'GET /auth/passkeys': { status: 200, body: [] },
    'POST /auth/totp': { status: 200, body: { secret: SECRET, otpauthUrl: 'otpauth://totp/Portal', qrCode: QR } },
    'POST /auth/totp/confirmar': (req) => {
      if ((JSON.parse(req.body) as { code: string }).code !== '123456') return incorrect;
      status = { ...status, totp: true, recoveryCodesLeft: 10, sessionVerified: true };
      return { status: 200, body: { recoveryCodes: CODES } };
    },
    'DELETE /auth/totp': (req) => {
      if ((JSON.parse(req.body) as { code: string }).code !== 'ABCDE-FGHJK') return incorrect;
      status = { ...status, totp: false, recoveryCodesLeft: 0 };
      return { status: 204 };
    },
    'POST /auth/codigos-recuperacion': () => {
      status = { ...status, recoveryCodesLeft: 10 };
      return { status: 200, body: { recoveryCodes: CODES } };
    },
    ...routes,
  });
  await useSession.getState().startSession('tok', user());
}

beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  await api.close();
  jest.restoreAllMocks();
});

const section = () => screen.getByRole('region', { name: 'Verificación en dos pasos' });

it('activates the app: the QR and the key, a wrong code refused, the right one shows the 10 codes once', async () => {
  await start();
  renderAt('/perfil', <SecurityTab />);
  await userEvent.click(await screen.findByRole('button', { name: 'Activar aplicación de autenticación' }));

  expect(await screen.findByRole('img', { name: 'Código QR para tu aplicación de autenticación' })).toHaveAttribute(
    'src',
    QR,
  );
  expect(screen.getByText(/¿No puedes escanearlo\? Escribe esta clave:/)).toBeInTheDocument();
  expect(screen.getByTestId('totp-secret').textContent?.replace(/\s+/g, '')).toBe(SECRET);
  const field = screen.getByLabelText('Código de 6 dígitos');
  expect(field).toHaveAttribute('inputmode', 'numeric');
  expect(field).toHaveAttribute('autocomplete', 'one-time-code');

  await userEvent.type(field, '000000');
  await userEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
  expect(await within(section()).findByRole('alert')).toHaveTextContent('Código incorrecto');
  expect(bodyOf(api, '/auth/totp/confirmar')).toEqual({ code: '000000' });

  await userEvent.clear(field);
  await userEvent.type(field, '123 456');
  await userEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
  const codes = await screen.findByRole('list', { name: 'Códigos de recuperación' });
  expect(
    within(codes)
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual(CODES);
  expect(screen.getByText(/Guarda estos códigos de recuperación/)).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Copiar códigos' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Descargar' })).toBeInTheDocument();
  expect(api.requests.filter((r) => r.path === '/auth/totp/confirmar').map((r) => JSON.parse(r.body))).toEqual([
    { code: '000000' },
    { code: '123456' },
  ]);

  await userEvent.click(screen.getByRole('button', { name: 'Ya los guardé' }));
  expect(screen.queryByRole('list', { name: 'Códigos de recuperación' })).not.toBeInTheDocument();
  expect(await screen.findByText('Códigos de recuperación sin usar: 10')).toBeInTheDocument();
  expect(within(section()).getByText('Activada')).toBeInTheDocument();
});

it('copies the codes to the clipboard', async () => {
  const writeText = jest.fn(async () => undefined);
  Object.assign(navigator, { clipboard: { writeText } });
  await start({ totp: true, recoveryCodesLeft: 3 });
  renderAt('/perfil', <SecurityTab />);
  await userEvent.click(await screen.findByRole('button', { name: 'Generar códigos nuevos' }));
  await userEvent.type(screen.getByLabelText('Código de 6 dígitos'), '654321');
  await userEvent.click(screen.getByRole('button', { name: 'Generar códigos' }));
  await screen.findByRole('list', { name: 'Códigos de recuperación' });
  expect(bodyOf(api, '/auth/codigos-recuperacion')).toEqual({ code: '654321' });
  await userEvent.click(screen.getByRole('button', { name: 'Copiar códigos' }));
  expect(writeText).toHaveBeenCalledWith(CODES.join('\n'));
  expect(await screen.findByText('Códigos copiados')).toBeInTheDocument();
});

it('disables the app with a recovery code, after confirming', async () => {
  await start({ totp: true, recoveryCodesLeft: 4 });
  renderAt('/perfil', <SecurityTab />);
  expect(await screen.findByText('Códigos de recuperación sin usar: 4')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Desactivar' }));
  expect(screen.getByText(/¿Desactivar la aplicación de autenticación\?/)).toBeInTheDocument();
  await userEvent.click(within(section()).getByRole('button', { name: 'Cancelar' }));
  expect(api.requests.some((r) => r.method === 'DELETE')).toBe(false);

  await userEvent.click(screen.getByRole('button', { name: 'Desactivar' }));
  const field = screen.getByLabelText('Código de 6 dígitos o de recuperación');
  await userEvent.type(field, 'ABCDE-FGHJX');
  await userEvent.click(screen.getByRole('button', { name: 'Sí, desactivar' }));
  expect(await within(section()).findByRole('alert')).toHaveTextContent('Código incorrecto');

  await userEvent.clear(field);
  await userEvent.type(field, 'ABCDE-FGHJK');
  await userEvent.click(screen.getByRole('button', { name: 'Sí, desactivar' }));
  expect(await screen.findByText('Verificación en dos pasos desactivada')).toBeInTheDocument();
  expect(await screen.findByRole('button', { name: 'Activar aplicación de autenticación' })).toBeInTheDocument();
  const deletes = api.requests.filter((r) => r.method === 'DELETE' && r.path === '/auth/totp');
  expect(deletes.map((r) => JSON.parse(r.body))).toEqual([{ code: 'ABCDE-FGHJX' }, { code: 'ABCDE-FGHJK' }]);
});

it("shows the API's message when an administrator's last factor cannot go", async () => {
  await start(
    { totp: true, recoveryCodesLeft: 10, secondFactorRequired: true, sessionVerified: true },
    {
      'DELETE /auth/totp': {
        status: 409,
        body: {
          statusCode: 409,
          message: 'Un administrador debe conservar un segundo factor: agrega otro antes de quitar este',
          code: 'LAST_SECOND_FACTOR',
        },
      },
    },
  );
  renderAt('/perfil', <SecurityTab />);
  await userEvent.click(await screen.findByRole('button', { name: 'Desactivar' }));
  await userEvent.type(screen.getByLabelText('Código de 6 dígitos o de recuperación'), '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Sí, desactivar' }));
  expect(await within(section()).findByRole('alert')).toHaveTextContent(
    'Un administrador debe conservar un segundo factor: agrega otro antes de quitar este',
  );
  expect(screen.getByText('Códigos de recuperación sin usar: 10')).toBeInTheDocument();
});

it('asks an administrator without a second factor to set one up, and stops once one is on', async () => {
  const notice =
    'Como administrador debes configurar un segundo factor (una aplicación de autenticación o una llave de acceso) para usar el panel de administración.';
  await start({ secondFactorRequired: true });
  renderAt('/perfil', <SecurityTab />);
  expect(await screen.findByText(notice)).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Activar aplicación de autenticación' }));
  await userEvent.type(await screen.findByLabelText('Código de 6 dígitos'), '123456');
  await userEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
  await screen.findByRole('list', { name: 'Códigos de recuperación' });
  await waitFor(() => expect(screen.queryByText(notice)).not.toBeInTheDocument());
});

it('no notice for an account that need not have a second factor', async () => {
  await start();
  renderAt('/perfil', <SecurityTab />);
  await screen.findByRole('button', { name: 'Activar aplicación de autenticación' });
  expect(screen.queryByText(/Como administrador/)).not.toBeInTheDocument();
});
