import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type InteractionDetails, replaceWith, useSession } from '@portal/shared';
import { type FakeReply, firstThen, type RecordedRequest } from '@portal/shared/testing/fake-api';
import { bodyOf, renderAt, useFakeApi, user, type FakeApi } from '../../testing/render';
import AuthorizePage from './AuthorizePage';
import { SECOND_FACTOR_NOT_YET } from '../../second-factor/StepUpScreen';

jest.mock('@portal/shared', () => ({ ...jest.requireActual('@portal/shared'), replaceWith: jest.fn() }));

const UID = 'Xq3_kP9-aB7cD2eF1gH0i';
const BASE = `/oidc/interaccion/${UID}`;
const BACK_TO_APP = `http://127.0.0.1:3000/oidc/auth/${UID}`;
const PROVE = '/auth/segundo-factor/verificar';

function details(segundoFactor: InteractionDetails['segundoFactor']): InteractionDetails {
  return {
    cliente: { id: 'historiador', nombre: 'Historiador', primeraParte: true },
    permisos: [{ scope: 'openid', descripcion: 'Saber quién eres' }],
    consentimiento: false,
    reautenticar: false,
    segundoFactor,
  };
}

type Route = FakeReply | ((req: RecordedRequest) => FakeReply);
let api: FakeApi;

async function open(routes: Record<string, Route>) {
  api = await useFakeApi({
    [`POST ${BASE}/continuar`]: { status: 200, body: { redirectTo: BACK_TO_APP } },
    [`POST ${BASE}/cancelar`]: { status: 200, body: { redirectTo: `${BACK_TO_APP}?cancelado` } },
    ...routes,
  });
  await useSession.getState().startSession('token-de-ana', user());
  useSession.setState({ isInitialized: true });
  return renderAt(`/autorizar?interaccion=${UID}`, <AuthorizePage />);
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

describe('an app asking for a second factor this session has not proved', () => {
  it("asks for the 'Código de verificación' in this session, then goes on to the app", async () => {
    await open({
      [`GET ${BASE}/detalles`]: firstThen(
        { status: 200, body: details({ metodos: ['totp', 'recovery'], permiteConfiarDispositivo: true }) },
        { status: 200, body: details(null) },
      ),
      [`POST ${PROVE}`]: { status: 204 },
    });
    const heading = await screen.findByRole('heading', { name: 'Confirma tu identidad' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByText('Historiador pide que confirmes tu identidad con tu segundo factor.')).toBeInTheDocument();
    expect(sent('POST', `${BASE}/continuar`)).toHaveLength(0);

    const fetchSpy = jest.spyOn(globalThis, 'fetch');
    await userEvent.type(screen.getByLabelText('Código de verificación'), '123 456');
    // The box spares the sign-in's second step on this browser later (never an app's demand like this one).
    await userEvent.click(
      screen.getByRole('checkbox', { name: 'No volver a pedir en este dispositivo durante 30 días' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Verificar' }));
    await waitFor(() => expect(replaceWith).toHaveBeenCalledWith(BACK_TO_APP));
    expect(bodyOf(api, PROVE)).toEqual({ code: '123456', confiarDispositivo: true });
    // The browser keeps the cookie the API sets with the answer.
    const proof = fetchSpy.mock.calls.map(([input]) => input as Request).find((r) => r.url.endsWith(PROVE));
    expect(proof?.credentials).toBe('include');
    expect(sent('POST', PROVE)[0]?.headers.authorization).toBe('Bearer token-de-ana');
    expect(sent('POST', `${BASE}/continuar`)).toHaveLength(1);
  });

  it('a wrong code says so and goes nowhere; a recovery code can be used instead', async () => {
    await open({
      [`GET ${BASE}/detalles`]: {
        status: 200,
        body: details({ metodos: ['totp', 'recovery'], permiteConfiarDispositivo: false }),
      },
      [`POST ${PROVE}`]: {
        status: 400,
        body: { statusCode: 400, code: 'INVALID_SECOND_FACTOR', message: 'Código incorrecto' },
      },
    });
    await userEvent.type(await screen.findByLabelText('Código de verificación'), '000000');
    // A company that forbids trusted devices: no box offered.
    expect(screen.queryByRole('checkbox')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Verificar' }));
    expect(await screen.findByText('Código incorrecto')).toBeInTheDocument();
    expect(replaceWith).not.toHaveBeenCalled();
    expect(sent('POST', `${BASE}/continuar`)).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Usar un código de recuperación' }));
    expect(screen.getByLabelText('Código de recuperación')).toBeInTheDocument();
  });

  it('Cancelar tells the app its requirements were not met', async () => {
    await open({
      [`GET ${BASE}/detalles`]: { status: 200, body: details({ metodos: ['totp'], permiteConfiarDispositivo: false }) },
    });
    await screen.findByLabelText('Código de verificación');
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(replaceWith).toHaveBeenCalledWith(`${BACK_TO_APP}?cancelado`));
    expect(bodyOf(api, `${BASE}/cancelar`)).toEqual({ motivo: 'segundo_factor' });
    expect(sent('POST', `${BASE}/continuar`)).toHaveLength(0);
  });

  it('a person with none is sent to set one up, and goes on once this session has one', async () => {
    await open({
      [`GET ${BASE}/detalles`]: (() => {
        const replies = [
          details({ metodos: [], permiteConfiarDispositivo: false }),
          details({ metodos: [], permiteConfiarDispositivo: false }),
          details(null),
        ];
        let call = 0;
        return () => ({ status: 200, body: replies[Math.min(call++, replies.length - 1)] });
      })(),
    });
    expect(await screen.findByText(/Historiador pide un segundo factor y aún no tienes uno/)).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'Mi perfil, pestaña Seguridad' });
    expect(link).toHaveAttribute('href', '/perfil?tab=seguridad');
    expect(link).toHaveAttribute('target', '_blank');
    expect(screen.queryByLabelText('Código de verificación')).toBeNull();

    // Not set up yet: the page says so and stays.
    await userEvent.click(screen.getByRole('button', { name: 'Continuar a la aplicación' }));
    expect(await screen.findByText(SECOND_FACTOR_NOT_YET)).toBeInTheDocument();
    expect(sent('POST', `${BASE}/continuar`)).toHaveLength(0);

    // Set up in the other tab: on to the app.
    await userEvent.click(screen.getByRole('button', { name: 'Continuar a la aplicación' }));
    await waitFor(() => expect(replaceWith).toHaveBeenCalledWith(BACK_TO_APP));
    expect(sent('POST', `${BASE}/continuar`)).toHaveLength(1);
  });

  it('a continuation the API refuses for the second factor reads the request again and asks', async () => {
    await open({
      [`GET ${BASE}/detalles`]: firstThen(
        { status: 200, body: details(null) },
        { status: 200, body: details({ metodos: ['totp'], permiteConfiarDispositivo: false }) },
      ),
      [`POST ${BASE}/continuar`]: {
        status: 409,
        body: {
          statusCode: 409,
          code: 'STEP_UP_REQUIRED',
          message: 'Esta aplicación pide que confirmes tu identidad con tu segundo factor',
        },
      },
    });
    expect(await screen.findByLabelText('Código de verificación')).toBeInTheDocument();
    expect(replaceWith).not.toHaveBeenCalled();
  });
});
