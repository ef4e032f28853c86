import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type RulesOfMyCompany, useSession, whenApiIdle } from '@portal/shared';
import { renderAt, useFakeApi, user, type FakeApi } from '../../../testing/render';
import { CompanyRulesSection } from './CompanyRulesSection';

let api: FakeApi;
let answer: { status: number; body?: unknown };

const rules = (nombre: string, change: Partial<RulesOfMyCompany>): RulesOfMyCompany => ({
  empresa: { id: nombre.length, nombre },
  redesPermitidas: [],
  metodosPermitidos: ['contrasena', 'google', 'apple', 'llave', 'empresa'],
  sesionMaximaHoras: null,
  inactividadMinutos: null,
  ...change,
});

async function start() {
  api = await useFakeApi({ 'GET /auth/reglas-empresa': () => answer });
  await useSession.getState().startSession('token-de-ana', user());
  renderAt('/perfil?tab=seguridad', <CompanyRulesSection />);
}

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(async () => {
  await whenApiIdle();
  await api.close();
  jest.restoreAllMocks();
});

it("says which of the company's rules apply to the person and why", async () => {
  answer = {
    status: 200,
    body: {
      data: [
        rules('Minera Andina S.A.', {
          redesPermitidas: ['203.0.113.0/24', '2001:db8::/32'],
          metodosPermitidos: ['contrasena', 'llave'],
          sesionMaximaHoras: 8,
          inactividadMinutos: 30,
        }),
        rules('Eléctrica Sur', { sesionMaximaHoras: 1 }),
      ],
    },
  };
  await start();
  expect(await screen.findByRole('heading', { name: 'Reglas de tu empresa' })).toBeInTheDocument();
  expect(screen.getByText(/se aplica la regla más estricta/)).toBeInTheDocument();
  const [minera, sur] = within(screen.getByRole('list', { name: 'Reglas de tu empresa' })).getAllByRole('listitem');
  expect(minera).toHaveTextContent('Minera Andina S.A.');
  expect(minera).toHaveTextContent('Solo puedes iniciar sesión desde sus redes: 203.0.113.0/24, 2001:db8::/32.');
  expect(minera).toHaveTextContent('Solo puedes iniciar sesión con tu contraseña o una llave de acceso.');
  expect(minera).toHaveTextContent('Tus sesiones duran como mucho 8 horas.');
  expect(minera).toHaveTextContent('Tu sesión se cierra tras 30 minutos sin uso.');
  expect(sur).toHaveTextContent('Eléctrica SurTus sesiones duran como mucho 1 hora.');
  expect(sur).not.toHaveTextContent('Solo puedes');
});

it('shows nothing to a person no company binds', async () => {
  answer = { status: 200, body: { data: [] } };
  await start();
  await whenApiIdle();
  expect(screen.queryByRole('heading', { name: 'Reglas de tu empresa' })).not.toBeInTheDocument();
});

it('a failed load says so in Spanish and tries again', async () => {
  answer = { status: 503, body: {} };
  await start();
  expect(await screen.findByText('No se pudieron cargar las reglas de tu empresa')).toBeInTheDocument();
  answer = { status: 200, body: { data: [rules('Minera Andina S.A.', { inactividadMinutos: 15 })] } };
  await userEvent.click(screen.getByRole('button', { name: /reintentar/i }));
  expect(await screen.findByText('Tu sesión se cierra tras 15 minutos sin uso.')).toBeInTheDocument();
});
