import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { catalogue } from '../../../../testing/fixtures';
import { PresentationModal } from '../PresentationModal';

const webApps = catalogue.filter((app) => app.isEnabledWeb);

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

function setup(onFinish = jest.fn().mockResolvedValue(undefined)) {
  const onDismiss = jest.fn();
  const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
  render(<PresentationModal apps={webApps} onDismiss={onDismiss} onFinish={onFinish} />);
  return { user, onDismiss, onFinish };
}

const step = () => screen.getByTestId('presentation-step').getAttribute('data-step');

it('starts at step 1 with the welcome, worded for anyone, and its three pills', () => {
  setup();
  expect(screen.getByRole('dialog', { name: 'Te damos la bienvenida a C+Suite' })).toBeInTheDocument();
  expect(screen.getByText('1 de 3')).toBeInTheDocument();
  expect(screen.getByRole('img', { name: 'Video de bienvenida' })).toBeInTheDocument();
  for (const pill of ['Automatización Avanzada', 'Gestión Inteligente', 'Máxima Eficiencia']) {
    expect(screen.getByText(pill)).toBeInTheDocument();
  }
});

it("slides to the next step after 250 ms with 'Continuar'", async () => {
  const { user } = setup();
  await user.click(screen.getByRole('button', { name: 'Continuar' }));
  act(() => jest.advanceTimersByTime(249));
  expect(step()).toBe('1');
  act(() => jest.advanceTimersByTime(1));
  expect(step()).toBe('2');
  expect(screen.getByText('2 de 3')).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Nuestras Aplicaciones' })).toBeInTheDocument();
});

it('highlights one web app every 2 seconds on step 2, cycling back to the first', async () => {
  const { user } = setup();
  await user.click(screen.getByRole('button', { name: 'Continuar' }));
  act(() => jest.advanceTimersByTime(250));
  const highlighted = () => screen.getByRole('listitem', { current: true }).textContent;
  expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(webApps.map((app) => app.nombre));
  expect(highlighted()).toBe('Control Max 360');
  act(() => jest.advanceTimersByTime(1999));
  expect(highlighted()).toBe('Control Max 360');
  act(() => jest.advanceTimersByTime(1));
  expect(highlighted()).toBe('Beto Pro');
  act(() => jest.advanceTimersByTime(2000 * (webApps.length - 1)));
  expect(highlighted()).toBe('Control Max 360');
});

it("goes back one step with 'Anterior', which step 1 does not offer: nothing closes the presentation silently", async () => {
  const { user, onDismiss, onFinish } = setup();
  expect(screen.queryByRole('button', { name: 'Anterior' })).not.toBeInTheDocument();
  for (const next of ['2', '3']) {
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    act(() => jest.advanceTimersByTime(250));
    expect(step()).toBe(next);
  }
  await user.click(screen.getByRole('button', { name: 'Anterior' }));
  act(() => jest.advanceTimersByTime(250));
  expect(step()).toBe('2');
  expect(screen.getByText('2 de 3')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Anterior' }));
  act(() => jest.advanceTimersByTime(250));
  expect(step()).toBe('1');
  expect(screen.getByRole('dialog', { name: 'Te damos la bienvenida a C+Suite' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Anterior' })).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Continuar' })).toBeEnabled();
  expect(onDismiss).not.toHaveBeenCalled();
  expect(onFinish).not.toHaveBeenCalled();
});

it('compares the free and Pro accounts on step 3 and finishes by going on with the free account, never offering to create one', async () => {
  const { user, onFinish } = setup();
  for (let i = 0; i < 2; i++) {
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    act(() => jest.advanceTimersByTime(250));
  }
  expect(screen.getByText('3 de 3')).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Elige un plan para continuar' })).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Cuenta Gratis' })).toBeInTheDocument();
  expect(screen.getByText('Beto Pro: 20 consultas gratuitas')).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Cuenta Pro' })).toBeInTheDocument();
  expect(screen.getByText('Próximamente')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Continuar' })).not.toBeInTheDocument();
  // Whoever sees it is signed in: their account exists, with the free plan of every app.
  expect(screen.queryByText(/crear cuenta/i)).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: /crear cuenta/i })).not.toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Continuar con la Cuenta Gratis' }));
  expect(onFinish).toHaveBeenCalledTimes(1);
});

it('shows why finishing failed and lets the person try again', async () => {
  const { user } = setup(jest.fn().mockRejectedValue(new Error('Error al actualizar presentación')));
  for (let i = 0; i < 2; i++) {
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    act(() => jest.advanceTimersByTime(250));
  }
  await user.click(screen.getByRole('button', { name: 'Continuar con la Cuenta Gratis' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Error al actualizar presentación');
  expect(screen.getByRole('button', { name: 'Continuar con la Cuenta Gratis' })).toBeEnabled();
});
