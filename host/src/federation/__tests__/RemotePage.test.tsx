import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadRemotePage, RemoteUnavailableError } from '../remotes';
import { RemotePage } from '../RemotePage';

jest.mock('../remotes', () => {
  const actual = jest.requireActual('../remotes');
  return { ...actual, loadRemotePage: jest.fn() };
});
jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerRemotes: jest.fn() }));

const load = jest.mocked(loadRemotePage);

beforeEach(() => {
  load.mockReset();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

function CalculatorStub() {
  return <h1>Calculadora TXI</h1>;
}

it('shows the loading state, then the page the remote exposes', async () => {
  load.mockResolvedValue({ default: CalculatorStub });
  render(<RemotePage remote="calculator" module="./CalculatorPage" />);
  expect(screen.getByRole('status')).toHaveTextContent('Cargando...');
  expect(await screen.findByRole('heading', { name: 'Calculadora TXI' })).toBeInTheDocument();
  expect(load).toHaveBeenCalledWith('calculator', './CalculatorPage', false);
});

it('shows the Spanish fallback when the remote is down, and Reintentar loads it afresh', async () => {
  load
    .mockRejectedValueOnce(new RemoteUnavailableError('admin', 'down'))
    .mockResolvedValueOnce({ default: CalculatorStub });
  render(<RemotePage remote="admin" module="./DashboardPage" />);
  const fallback = await screen.findByRole('alert');
  expect(fallback).toHaveTextContent('Esta sección no está disponible en este momento.');
  await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
  expect(await screen.findByRole('heading', { name: 'Calculadora TXI' })).toBeInTheDocument();
  expect(load).toHaveBeenLastCalledWith('admin', './DashboardPage', true);
});

it('shows the fallback when the remote page itself breaks while rendering', async () => {
  function Broken(): never {
    throw new Error('bad chunk');
  }
  load.mockResolvedValue({ default: Broken });
  render(<RemotePage remote="apps" module="./PlansPage" />);
  expect(await screen.findByText('Esta sección no está disponible en este momento.')).toBeInTheDocument();
});
