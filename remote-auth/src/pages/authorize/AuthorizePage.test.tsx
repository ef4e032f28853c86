import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  type InteractionDetails,
  isFreshSignInPending,
  PENDING_INTERACTION_KEY,
  replaceWith,
  takePendingInteraction,
  useSession,
} from '@portal/shared';
import { type FakeReply, firstThen, type RecordedRequest } from '@portal/shared/testing/fake-api';
import { bodyOf, renderAt, useFakeApi, user, type FakeApi } from '../../testing/render';
import AuthorizePage from './AuthorizePage';

jest.mock('@portal/shared', () => ({ ...jest.requireActual('@portal/shared'), replaceWith: jest.fn() }));

const UID = 'Xq3_kP9-aB7cD2eF1gH0i';
const BASE = `/oidc/interaccion/${UID}`;
const BACK_TO_APP = `http://127.0.0.1:3000/oidc/auth/${UID}`;
const EXPIRED = {
  status: 404,
  body: {
    statusCode: 404,
    code: 'INTERACTION_NOT_FOUND',
    message: 'La solicitud de inicio de sesión expiró o no es válida. Vuelve a la aplicación e inténtalo de nuevo.',
  },
};

function details(overrides: Partial<InteractionDetails> = {}): InteractionDetails {
  return {
    cliente: { id: 'beto-pro', nombre: 'Beto Pro', primeraParte: false },
    permisos: [
      { scope: 'openid', descripcion: 'Saber quién eres' },
      { scope: 'email', descripcion: 'Ver tu dirección de email' },
    ],
    consentimiento: false,
    reautenticar: false,
    segundoFactor: null,
    ...overrides,
  };
}

type Route = FakeReply | ((req: RecordedRequest) => FakeReply);
let api: FakeApi;

async function open(
  routes: Record<string, Route>,
  { signedIn = true, address = `/autorizar?interaccion=${UID}` } = {},
) {
  api = await useFakeApi({
    [`GET ${BASE}/detalles`]: { status: 200, body: details() },
    [`POST ${BASE}/continuar`]: { status: 200, body: { redirectTo: BACK_TO_APP } },
    [`POST ${BASE}/cancelar`]: { status: 200, body: { redirectTo: `${BACK_TO_APP}?cancelado` } },
    ...routes,
  });
  if (signedIn) await useSession.getState().startSession('token-de-ana', user());
  useSession.setState({ isInitialized: true });
  return renderAt(address, <AuthorizePage />);
}

const sent = (method: string, path: string) => api.requests.filter((r) => r.method === method && r.path === path);

beforeEach(() => {
  sessionStorage.clear();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  await api?.close();
  jest.restoreAllMocks();
  jest.mocked(replaceWith).mockReset();
});

describe('a signed-in person', () => {
  it('goes on to a first-party app at once, with "Conectando con …" meanwhile, and back to the app', async () => {
    await open({ [`POST ${BASE}/continuar`]: { status: 200, body: { redirectTo: BACK_TO_APP }, delay: 150 } });
    expect(await screen.findByText('Conectando con Beto Pro...')).toBeInTheDocument();
    await waitFor(() => expect(replaceWith).toHaveBeenCalledWith(BACK_TO_APP));
    const [go] = sent('POST', `${BASE}/continuar`);
    expect(JSON.parse(go?.body ?? '')).toEqual({});
    expect(go?.headers.authorization).toBe('Bearer token-de-ana');
    expect(sent('GET', `${BASE}/detalles`)[0]?.headers.authorization).toBe('Bearer token-de-ana');
    expect(sessionStorage.getItem(PENDING_INTERACTION_KEY)).toBeNull();
  });

  it('is asked for a third-party app: who is signed in, what it will see, and Permitir sends permitir', async () => {
    await open({
      [`GET ${BASE}/detalles`]: { status: 200, body: details({ consentimiento: true }) },
      [`POST ${BASE}/continuar`]: { status: 200, body: { redirectTo: BACK_TO_APP }, delay: 150 },
    });
    const heading = await screen.findByRole('heading', { name: 'Beto Pro quiere acceder a tu cuenta' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByText(/Has iniciado sesión como/)).toHaveTextContent('Has iniciado sesión como ana@example.com');
    const list = screen.getByRole('list', { name: 'Beto Pro podrá:' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Saber quién eres', 'Ver tu dirección de email']);
    expect(screen.getByText(/es una aplicación de terceros/)).toBeInTheDocument();
    expect(sent('POST', `${BASE}/continuar`)).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Permitir' }));
    expect(screen.getByRole('button', { name: 'Conectando...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancelar' })).toBeDisabled();
    await waitFor(() => expect(replaceWith).toHaveBeenCalledWith(BACK_TO_APP));
    expect(bodyOf(api, `${BASE}/continuar`)).toEqual({ permitir: true });
    expect(sent('POST', `${BASE}/continuar`)).toHaveLength(1);
  });

  it('Cancelar tells the app the person refused, by keyboard too', async () => {
    await open({ [`GET ${BASE}/detalles`]: { status: 200, body: details({ consentimiento: true }) } });
    await screen.findByRole('heading', { name: 'Beto Pro quiere acceder a tu cuenta' });
    await userEvent.tab();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Cancelar' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(replaceWith).toHaveBeenCalledWith(`${BACK_TO_APP}?cancelado`));
    expect(sent('POST', `${BASE}/cancelar`)).toHaveLength(1);
    expect(sent('POST', `${BASE}/continuar`)).toHaveLength(0);
  });

  it("a sign-in the company's rules refuse says why, asks nothing, and Volver a la aplicación tells the app", async () => {
    const message =
      'La empresa «Planta Norte» solo permite iniciar sesión desde sus redes, y esta dirección (203.0.113.9) no está entre ellas: conéctate desde la red de la empresa o pide a su administrador que la añada';
    await open({
      [`GET ${BASE}/detalles`]: { status: 403, body: { statusCode: 403, code: 'RED_NO_PERMITIDA', message } },
    });
    const heading = await screen.findByRole('heading', { name: 'No se pudo iniciar sesión en la aplicación' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Permitir' })).toBeNull();
    expect(sent('POST', `${BASE}/continuar`)).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Volver a la aplicación' }));
    await waitFor(() => expect(replaceWith).toHaveBeenCalledWith(`${BACK_TO_APP}?cancelado`));
    expect(sent('POST', `${BASE}/cancelar`)).toHaveLength(1);
  });

  it('a refusal at Permitir (the person moved networks meanwhile) shows the same page', async () => {
    const message =
      'La empresa «Planta Norte» no permite iniciar sesión con contraseña: usa el inicio de sesión de la empresa';
    await open({
      [`GET ${BASE}/detalles`]: { status: 200, body: details({ consentimiento: true }) },
      [`POST ${BASE}/continuar`]: { status: 403, body: { statusCode: 403, code: 'METODO_NO_PERMITIDO', message } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Permitir' }));
    expect(
      await screen.findByRole('heading', { name: 'No se pudo iniciar sesión en la aplicación' }),
    ).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(replaceWith).not.toHaveBeenCalled();
  });

  it('a failed Permitir says why and lets the person answer again', async () => {
    await open({
      [`GET ${BASE}/detalles`]: { status: 200, body: details({ consentimiento: true }) },
      [`POST ${BASE}/continuar`]: firstThen(
        { status: 500, body: { statusCode: 500, message: 'Ocurrió un error inesperado en el portal.' } },
        { status: 200, body: { redirectTo: BACK_TO_APP } },
      ),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Permitir' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ocurrió un error inesperado en el portal.');
    await userEvent.click(screen.getByRole('button', { name: 'Permitir' }));
    await waitFor(() => expect(replaceWith).toHaveBeenCalledWith(BACK_TO_APP));
  });

  it('is asked after all when the API says the app is not allowed yet (409 CONSENT_REQUIRED)', async () => {
    await open({
      [`POST ${BASE}/continuar`]: (req) =>
        JSON.parse(req.body).permitir
          ? { status: 200, body: { redirectTo: BACK_TO_APP } }
          : { status: 409, body: { statusCode: 409, code: 'CONSENT_REQUIRED', message: 'Falta tu permiso.' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Permitir' }));
    await waitFor(() => expect(replaceWith).toHaveBeenCalledWith(BACK_TO_APP));
  });

  it('signs in again when the app asked for a fresh sign-in, keeping the interaction for after it', async () => {
    await open({ [`GET ${BASE}/detalles`]: { status: 200, body: details({ reautenticar: true }) } });
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(`/login?interaccion=${UID}&reautenticar=1`),
    );
    expect(sent('POST', `${BASE}/continuar`)).toHaveLength(0);
    expect(isFreshSignInPending()).toBe(true);
    expect(useSession.getState().isAuthenticated).toBe(true);
  });

  it('signs in again, session kept, when continuar answers SIGN_IN_AGAIN', async () => {
    await open({
      [`POST ${BASE}/continuar`]: {
        status: 401,
        body: { statusCode: 401, code: 'SIGN_IN_AGAIN', message: 'Vuelve a iniciar sesión.' },
      },
    });
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(`/login?interaccion=${UID}&reautenticar=1`),
    );
    expect(useSession.getState().isAuthenticated).toBe(true);
    expect(localStorage.getItem('token')).toBe('token-de-ana');
  });

  it('after another 401 the session ends as usual and the tab keeps the interaction for the next sign-in', async () => {
    await open({
      [`POST ${BASE}/continuar`]: { status: 401, body: { statusCode: 401, message: 'Sesión expirada' } },
    });
    await waitFor(() => expect(useSession.getState().isAuthenticated).toBe(false));
    expect(localStorage.getItem('token')).toBeNull();
    await waitFor(() => expect(takePendingInteraction()).toBe(UID));
    expect(replaceWith).not.toHaveBeenCalled();
  });

  it('never follows an answer that is not an http(s) address', async () => {
    await open({ [`POST ${BASE}/continuar`]: { status: 200, body: { redirectTo: 'javascript:alert(1)' } } });
    expect(await screen.findByRole('alert')).toHaveTextContent('No se pudo continuar a la aplicación');
    expect(replaceWith).not.toHaveBeenCalled();
  });
});

describe('a signed-out person', () => {
  it('signs in first; the tab keeps the interaction and nothing is sent on', async () => {
    await open({}, { signedIn: false });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/login?interaccion=${UID}`));
    expect(screen.getByTestId('location')).not.toHaveTextContent('reautenticar');
    expect(sent('GET', `${BASE}/detalles`)[0]?.headers.authorization).toBeUndefined();
    expect(sent('POST', `${BASE}/continuar`)).toHaveLength(0);
    expect(isFreshSignInPending()).toBe(false);
    expect(takePendingInteraction()).toBe(UID);
  });

  it('waits for the session to be known before asking anything', async () => {
    api = await useFakeApi({ [`GET ${BASE}/detalles`]: { status: 200, body: details() } });
    renderAt(`/autorizar?interaccion=${UID}`, <AuthorizePage />);
    expect(screen.getByRole('status')).toHaveTextContent('Cargando...');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.requests).toHaveLength(0);
    act(() => useSession.setState({ isInitialized: true }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/login?interaccion=${UID}`));
  });
});

describe('when the interaction cannot go on', () => {
  it('an address without a valid id shows the invalid-request problem and asks nothing', async () => {
    for (const address of ['/autorizar', '/autorizar?interaccion=corto', `/autorizar?interaccion=${UID}%2F..`]) {
      const view = await open({}, { address });
      expect(screen.getByRole('heading', { name: 'No se pudo iniciar sesión en la aplicación' })).toBeInTheDocument();
      expect(screen.getByText('La solicitud de la aplicación no es válida.')).toBeInTheDocument();
      expect(api.requests).toHaveLength(0);
      view.unmount();
      await api.close();
    }
  });

  it('an expired or unknown interaction says so, with Ir a Aplicaciones', async () => {
    await open({ [`GET ${BASE}/detalles`]: EXPIRED });
    const heading = await screen.findByRole('heading', { name: 'No se pudo iniciar sesión en la aplicación' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(
      screen.getByText(
        'La solicitud de inicio de sesión expiró o no es válida. Vuelve a la aplicación e inténtalo de nuevo.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Ir a Aplicaciones' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/apps$/);
  });

  it('an interaction that expires on the consent screen says so', async () => {
    await open({
      [`GET ${BASE}/detalles`]: { status: 200, body: details({ consentimiento: true }) },
      [`POST ${BASE}/cancelar`]: EXPIRED,
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancelar' }));
    expect(await screen.findByText(/expiró o no es válida/)).toBeInTheDocument();
    expect(replaceWith).not.toHaveBeenCalled();
  });

  it('a failure to read it offers Reintentar', async () => {
    await open({
      [`GET ${BASE}/detalles`]: firstThen(
        { status: 503, body: { statusCode: 503, message: 'El servicio no está disponible. Inténtalo más tarde.' } },
        { status: 200, body: details() },
      ),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('El servicio no está disponible. Inténtalo más tarde.');
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(replaceWith).toHaveBeenCalledWith(BACK_TO_APP));
  });
});

it("sends the browser's cookies with every call of the interaction", async () => {
  const fetchSpy = jest.spyOn(globalThis, 'fetch');
  await open({ [`GET ${BASE}/detalles`]: { status: 200, body: details({ consentimiento: true }) } });
  await userEvent.click(await screen.findByRole('button', { name: 'Permitir' }));
  await waitFor(() => expect(replaceWith).toHaveBeenCalled());
  const interactionCalls = fetchSpy.mock.calls
    .map(([input]) => input as Request)
    .filter((request) => new URL(request.url).pathname.startsWith('/oidc/'));
  expect(interactionCalls.map((request) => [request.method, request.credentials])).toEqual([
    ['GET', 'include'],
    ['POST', 'include'],
  ]);
});
