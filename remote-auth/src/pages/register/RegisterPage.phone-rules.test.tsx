import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadedPhoneRules, loadPhoneRules } from '../../rules/phone-rules';
import { renderAt, useFakeApi, type FakeApi } from '../../testing/render';
import RegisterPage from './RegisterPage';

// The phone rules (libphonenumber-js's metadata) are not part of /register's first task; they are fetched
// when the phone field gets the focus, or when the step is sent.
jest.mock('../../rules/phone-rules', () => {
  const actual = jest.requireActual<typeof import('../../rules/phone-rules')>('../../rules/phone-rules');
  return { loadPhoneRules: jest.fn(actual.loadPhoneRules), loadedPhoneRules: jest.fn(actual.loadedPhoneRules) };
});

let api: FakeApi;

beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  api = await useFakeApi({ 'POST /auth/verificar-email': () => ({ status: 200, body: null }) });
});

afterEach(async () => {
  await api.close();
  jest.clearAllMocks();
});

it('fetches the phone rules when the phone field gets the focus, not before', async () => {
  renderAt('/register', <RegisterPage />);
  await userEvent.type(screen.getByLabelText('Email'), 'ana@example.com');
  await userEvent.type(screen.getByLabelText('Nombre'), 'Ana');
  expect(loadPhoneRules).not.toHaveBeenCalled();
  await userEvent.click(screen.getByLabelText('Teléfono'));
  expect(loadPhoneRules).toHaveBeenCalledTimes(1);
});

it('says so in Spanish when the rules cannot be fetched, asks the server nothing, and goes on at the next try', async () => {
  renderAt('/register', <RegisterPage />);
  await userEvent.type(screen.getByLabelText('Email'), 'ana@example.com');
  await userEvent.type(screen.getByLabelText('Nombre'), 'Ana');
  await userEvent.type(screen.getByLabelText('Apellido'), 'Pérez');
  await userEvent.type(screen.getByLabelText('Teléfono'), '812345678');
  // As if they had not come yet, and the network then failed.
  jest.mocked(loadedPhoneRules).mockReturnValueOnce(undefined);
  jest.mocked(loadPhoneRules).mockRejectedValueOnce(new Error('ChunkLoadError'));
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Ups! Ocurrió un error inesperado, inténtalo de nuevo');
  expect(screen.queryByText('El teléfono no es válido para el país elegido')).not.toBeInTheDocument();
  expect(api.requests).toHaveLength(0);
  await userEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  expect(await screen.findByText('El teléfono no es válido para el país elegido')).toBeInTheDocument();
  expect(screen.queryByText('Ups! Ocurrió un error inesperado, inténtalo de nuevo')).not.toBeInTheDocument();
  expect(api.requests).toHaveLength(0);
});
