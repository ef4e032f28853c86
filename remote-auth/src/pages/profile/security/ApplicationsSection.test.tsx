import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type AuthorizedApp, type OidcScope, useSession, whenApiIdle } from '@portal/shared';
import { firstThen } from '@portal/shared/testing/fake-api';
import { renderAt, useFakeApi, user, type FakeApi } from '../../../testing/render';
import { ApplicationsSection } from './ApplicationsSection';
import { absoluteDate } from './dates';

let api: FakeApi;
let allowed: AuthorizedApp[];
const EMPTY = 'No has permitido el acceso a ninguna aplicación externa.';

const authorized = (
  clientId: string,
  nombre: string,
  descripciones: string[],
  autorizadaEn: string,
  scopes: readonly OidcScope[] = ['profile', 'email', 'phone'],
): AuthorizedApp => ({
  clientId,
  nombre,
  permisos: descripciones.map((descripcion, i) => ({ scope: scopes[i % scopes.length] ?? 'openid', descripcion })),
  autorizadaEn,
});

async function start(routes: Parameters<typeof useFakeApi>[0] = {}) {
  api = await useFakeApi({
    'GET /auth/aplicaciones': () => ({ status: 200, body: { data: allowed } }),
    'DELETE /auth/aplicaciones/gestor-de-planta': () => {
      allowed = allowed.filter((app) => app.clientId !== 'gestor-de-planta');
      return { status: 204 };
    },
    ...routes,
  });
  await useSession.getState().startSession('token-de-ana', user());
  renderAt('/perfil?tab=seguridad', <ApplicationsSection />);
}

beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  allowed = [
    authorized(
      'gestor-de-planta',
      'Gestor de Planta',
      ['Saber quién eres', 'Ver tu email'],
      '2026-11-20T10:04:00.000Z',
    ),
    authorized('informes-xyz', 'Informes XYZ', ['Saber quién eres'], '2026-10-02T08:30:00.000Z'),
  ];
});

afterEach(async () => {
  await whenApiIdle();
  await api.close();
  jest.restoreAllMocks();
});

it('lists each allowed app with what it may see and since when', async () => {
  await start();
  expect(screen.getByRole('heading', { name: 'Aplicaciones con acceso' })).toBeInTheDocument();
  const items = await screen.findAllByTestId('aplicacion');
  expect(items).toHaveLength(2);
  expect(within(items[0]!).getByText('Gestor de Planta')).toBeInTheDocument();
  expect(within(items[0]!).getByText('Puede: Saber quién eres · Ver tu email')).toBeInTheDocument();
  expect(within(items[0]!).getByText(`Desde el ${absoluteDate('2026-11-20T10:04:00.000Z')}`)).toBeInTheDocument();
  expect(absoluteDate('2026-11-20T10:04:00.000Z')).toMatch(/20 nov 2026/);
  expect(api.requests[0]?.headers.authorization).toBe('Bearer token-de-ana');
});

it('removes an app only after confirming in a dialog; Cancelar and Escape keep it', async () => {
  await start();
  const [first] = await screen.findAllByTestId('aplicacion');
  const open = () => userEvent.click(within(first!).getByRole('button', { name: 'Quitar acceso de Gestor de Planta' }));

  await open();
  let dialog = screen.getByRole('dialog', { name: '¿Quitar el acceso de Gestor de Planta?' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

  await open();
  dialog = screen.getByRole('dialog', { name: '¿Quitar el acceso de Gestor de Planta?' });
  await userEvent.tab();
  expect(dialog).toContainElement(document.activeElement as HTMLElement);
  await userEvent.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(api.requests.some((r) => r.method === 'DELETE')).toBe(false);

  await open();
  dialog = screen.getByRole('dialog', { name: '¿Quitar el acceso de Gestor de Planta?' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Quitar acceso' }));
  expect(await screen.findByText('Se quitó el acceso de Gestor de Planta')).toBeInTheDocument();
  await waitFor(() => expect(screen.getAllByTestId('aplicacion')).toHaveLength(1));
  expect(screen.queryByText('Gestor de Planta')).not.toBeInTheDocument();
  expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
    '/auth/aplicaciones/gestor-de-planta',
  ]);
});

it('says when no app has access', async () => {
  allowed = [];
  await start();
  expect(await screen.findByText(EMPTY)).toBeInTheDocument();
  expect(screen.queryByRole('list')).not.toBeInTheDocument();
});

it('a failure to load offers Reintentar', async () => {
  await start({
    'GET /auth/aplicaciones': firstThen(
      { status: 500, body: { statusCode: 500, message: 'No se pudieron cargar las aplicaciones con acceso' } },
      { status: 200, body: { data: [] } },
    ),
  });
  expect(await screen.findByRole('alert')).toHaveTextContent('No se pudieron cargar las aplicaciones con acceso');
  await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
  expect(await screen.findByText(EMPTY)).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Reintentar' })).not.toBeInTheDocument();
});

it("a refused removal shows the API's message and keeps the app", async () => {
  await start({
    'DELETE /auth/aplicaciones/gestor-de-planta': {
      status: 503,
      body: { statusCode: 503, message: 'El servicio no está disponible. Inténtalo más tarde.' },
    },
  });
  const [first] = await screen.findAllByTestId('aplicacion');
  await userEvent.click(within(first!).getByRole('button', { name: 'Quitar acceso de Gestor de Planta' }));
  await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Quitar acceso' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('El servicio no está disponible. Inténtalo más tarde.');
  expect(screen.getAllByTestId('aplicacion')).toHaveLength(2);
});
