import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OidcClient, PartnerDelivery, PartnerSubscription, SamlApp } from '@portal/shared';
import { app } from '@portal/shared/testing/fixtures';
import { bodiesTo, page, queriesTo, renderAt, useFakeApi, type FakeApi } from '../../../testing/setup';
import { ConnectedAppsSection } from '../ConnectedAppsSection';

let api: FakeApi;
let subscriptions: PartnerSubscription[];
let deliveries: PartnerDelivery[];
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ROTATED = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
const SUB_ID = '3f0c6c1e-8a8e-4c1b-9a57-2f7d0d6f2b11';
const BASE = '/admin/aplicaciones-conectadas/7/suscripciones';

const client: OidcClient = {
  clientId: 'gestor',
  idAplicacion: 7,
  nombre: 'Gestor de Planta',
  redirectUris: ['https://gestor.example.com/cb'],
  postLogoutRedirectUris: [],
  backchannelLogoutUri: null,
  initiateLoginUri: null,
  publico: false,
  primeraParte: false,
  appId: 2,
  scopes: ['openid', 'plan'],
  sujeto: 'opaco',
  dispositivos: false,
  creadoEn: '2026-11-01T10:00:00.000Z',
  actualizadoEn: '2026-11-01T10:00:00.000Z',
};

function subscription(overrides: Partial<PartnerSubscription> = {}): PartnerSubscription {
  return {
    id: SUB_ID,
    url: 'https://gestor.example.com/eventos',
    eventos: ['usuario.suspendido', 'plan.cambiado'],
    estado: 'activa',
    motivoDesactivacion: null,
    secretoAnteriorHasta: null,
    creadaEn: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

function delivery(id: number, overrides: Partial<PartnerDelivery> = {}): PartnerDelivery {
  return {
    id,
    webhookId: `msg_${id}`,
    evento: 'plan.cambiado',
    seq: id,
    estado: 'entregada',
    intentos: 1,
    proximoIntento: null,
    ultimoError: null,
    codigoRespuesta: 204,
    ultimoIntento: '2026-11-27T02:20:00.000Z',
    entregadaEn: '2026-11-27T02:20:00.000Z',
    creadaEn: '2026-11-27T02:20:00.000Z',
    ...overrides,
  };
}

async function start(routes: Parameters<typeof useFakeApi>[0] = {}) {
  api = await useFakeApi({
    'GET /apps/listar': { status: 200, body: page([app(2, 'Beto Pro')], 1, 1, 100) },
    'GET /admin/clientes-oidc': { status: 200, body: { data: [client] } },
    'GET /admin/aplicaciones-saml': { status: 200, body: { data: [] } },
    [`GET ${BASE}`]: () => ({ status: 200, body: { data: subscriptions } }),
    [`GET ${BASE}/${SUB_ID}/entregas`]: () => ({ status: 200, body: { data: deliveries, siguiente: null } }),
    ...routes,
  });
  renderAt('/admin/apps', <ConnectedAppsSection />);
}

/** Opens 'Eventos' of the client: the area under it, named for it. */
async function openEvents(user: ReturnType<typeof userEvent.setup>) {
  const toggle = await screen.findByRole('button', { name: 'Eventos de Gestor de Planta' });
  expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await user.click(toggle);
  expect(toggle).toHaveAttribute('aria-expanded', 'true');
  return screen.findByRole('region', { name: 'Eventos de Gestor de Planta' });
}

beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  subscriptions = [subscription()];
  deliveries = [
    delivery(3, {
      estado: 'reintentando',
      intentos: 2,
      proximoIntento: '2026-11-27T02:25:00.000Z',
      ultimoError: 'El receptor falló al procesarlo (respondió 500)',
      codigoRespuesta: 500,
    }),
    delivery(2),
    delivery(1, {
      evento: 'usuario.suspendido',
      estado: 'fallida',
      intentos: 10,
      ultimoError: 'El receptor no respondió a tiempo (plazo de 10 s)',
      codigoRespuesta: null,
    }),
  ];
});

afterEach(async () => {
  await api.close();
  jest.restoreAllMocks();
});

describe("a client's events", () => {
  it('loads nothing until opened, then lists each subscription with its events and state', async () => {
    const user = userEvent.setup();
    subscriptions = [
      subscription(),
      subscription({
        id: '9a1b2c3d-0000-4000-8000-000000000000',
        url: 'https://viejo.example.com/eventos',
        eventos: ['plan.vencido'],
        estado: 'desactivada',
        motivoDesactivacion: 'El receptor respondió 410: ya no acepta eventos',
      }),
    ];
    await start({
      'GET /admin/aplicaciones-conectadas/7/suscripciones/9a1b2c3d-0000-4000-8000-000000000000/entregas': {
        status: 200,
        body: { data: [], siguiente: null },
      },
    });
    await screen.findByRole('button', { name: 'Eventos de Gestor de Planta' });
    expect(api.requests.filter((r) => r.path.startsWith(BASE))).toHaveLength(0);

    const area = await openEvents(user);
    const [active, gone] = await within(area).findAllByTestId('suscripcion');
    expect(within(active!).getByText('https://gestor.example.com/eventos')).toBeInTheDocument();
    expect(within(active!).getByText('Activa')).toBeInTheDocument();
    expect(within(active!).getByText('Eventos suscritos: usuario.suspendido, plan.cambiado')).toBeInTheDocument();
    expect(within(gone!).getByText('Desactivada: el receptor respondió 410: ya no acepta eventos')).toBeInTheDocument();
    expect(await within(gone!).findByText('Todavía no hay entregas.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Eventos de Gestor de Planta' }));
    expect(screen.queryByRole('region', { name: 'Eventos de Gestor de Planta' })).not.toBeInTheDocument();
  });

  it('creates a subscription: Spanish refusals first, then the secret shown once with Copiar', async () => {
    const user = userEvent.setup();
    subscriptions = [];
    await start({
      [`POST ${BASE}`]: () => {
        subscriptions = [subscription({ eventos: ['usuario.suspendido', 'plan.vencido'] })];
        return { status: 201, body: { id: SUB_ID, secreto: SECRET } };
      },
    });
    const area = await openEvents(user);
    expect(await within(area).findByText('Esta app no tiene suscripciones a eventos.')).toBeInTheDocument();
    await user.click(within(area).getByRole('button', { name: 'Nueva suscripción de Gestor de Planta' }));
    const dialog = screen.getByRole('dialog', { name: 'Nueva suscripción de Gestor de Planta' });
    // Focus is kept inside the dialog (the page behind is inert).
    expect(dialog).toContainElement(document.activeElement as HTMLElement);

    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Escribe la URL del receptor');
    await user.type(within(dialog).getByLabelText('URL del receptor'), 'gestor.example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('debe ser una dirección completa');
    await user.clear(within(dialog).getByLabelText('URL del receptor'));
    await user.type(within(dialog).getByLabelText('URL del receptor'), ' https://gestor.example.com/eventos ');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Marca al menos un evento');
    expect(bodiesTo(api, BASE).filter(Boolean)).toHaveLength(0);

    // Every event has its Spanish label; checked in any order, sent in the list's order.
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(10);
    expect(within(dialog).getByLabelText('Roles cambiados (roles.cambiados)')).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText('Plan vencido (plan.vencido)'));
    await user.click(within(dialog).getByLabelText('Cuenta suspendida (usuario.suspendido)'));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    const secretDialog = await screen.findByRole('dialog', { name: 'Secreto de la suscripción' });
    expect(bodiesTo(api, BASE).filter(Boolean)).toEqual([
      { url: 'https://gestor.example.com/eventos', eventos: ['usuario.suspendido', 'plan.vencido'] },
    ]);
    expect(within(secretDialog).getByText(/no se volverá a mostrar/)).toBeInTheDocument();
    expect(within(secretDialog).getByLabelText('Secreto de firma (whsec_...)')).toHaveValue(SECRET);
    await user.click(within(secretDialog).getByRole('button', { name: 'Copiar' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(SECRET);
    expect(within(area).getByText('Suscripción creada')).toBeInTheDocument();
    expect(await within(area).findByTestId('suscripcion')).toHaveTextContent('usuario.suspendido, plan.vencido');
  });

  it("shows the server's refusal in the dialog and keeps it open", async () => {
    const user = userEvent.setup();
    await start({
      [`POST ${BASE}`]: {
        status: 400,
        body: {
          statusCode: 400,
          message:
            'La dirección apunta a 10.0.0.5, una dirección privada o local: el portal no envía eventos a la red interna',
        },
      },
    });
    const area = await openEvents(user);
    await user.click(within(area).getByRole('button', { name: 'Nueva suscripción de Gestor de Planta' }));
    const dialog = screen.getByRole('dialog', { name: 'Nueva suscripción de Gestor de Planta' });
    await user.type(within(dialog).getByLabelText('URL del receptor'), 'https://10.0.0.5/eventos');
    await user.click(within(dialog).getByLabelText('Plan asignado (plan.asignado)'));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('una dirección privada o local');
    expect(screen.getByRole('dialog', { name: 'Nueva suscripción de Gestor de Planta' })).toBeInTheDocument();
  });

  it('rotates the secret after a question (Escape leaves it as it was), and shows the new one once', async () => {
    const user = userEvent.setup();
    await start({
      [`POST ${BASE}/${SUB_ID}/secreto`]: {
        status: 200,
        body: { id: SUB_ID, secreto: ROTATED, secretoAnteriorHasta: '2026-11-28T02:20:00.000Z' },
      },
    });
    const area = await openEvents(user);
    const rotate = await within(area).findByRole('button', {
      name: 'Rotar secreto de la suscripción https://gestor.example.com/eventos',
    });
    await user.click(rotate);
    let question = screen.getByRole('dialog', { name: '¿Rotar el secreto de la suscripción?' });
    expect(question).toHaveTextContent('durante 24 horas, también con el actual');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(rotate).toHaveFocus();
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await user.click(rotate);
    question = screen.getByRole('dialog', { name: '¿Rotar el secreto de la suscripción?' });
    await user.click(within(question).getByRole('button', { name: 'Rotar secreto' }));
    const secretDialog = await screen.findByRole('dialog', { name: 'Secreto de la suscripción' });
    expect(within(secretDialog).getByLabelText('Secreto de firma (whsec_...)')).toHaveValue(ROTATED);
    expect(within(area).getByText('Secreto de la suscripción rotado')).toBeInTheDocument();
  });

  it('deletes a subscription after a question naming its address', async () => {
    const user = userEvent.setup();
    await start({
      [`DELETE ${BASE}/${SUB_ID}`]: () => {
        subscriptions = [];
        return { status: 204, body: null };
      },
    });
    const area = await openEvents(user);
    await user.click(
      await within(area).findByRole('button', { name: 'Eliminar suscripción https://gestor.example.com/eventos' }),
    );
    const question = screen.getByRole('dialog', { name: '¿Eliminar la suscripción?' });
    expect(question).toHaveTextContent('dejará de enviar eventos a https://gestor.example.com/eventos');
    await user.click(within(question).getByRole('button', { name: 'Eliminar' }));
    expect(await within(area).findByText('Esta app no tiene suscripciones a eventos.')).toBeInTheDocument();
    expect(within(area).getByText('Suscripción eliminada')).toBeInTheDocument();
  });
});

describe("a subscription's deliveries", () => {
  it('shows event, state, tries, last error and code; Reenviar only once the portal is done with one', async () => {
    const user = userEvent.setup();
    await start();
    const area = await openEvents(user);
    const table = await within(area).findByRole('table', {
      name: 'Entregas recientes a https://gestor.example.com/eventos',
    });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Evento', 'Estado', 'Intentos', 'Último error', 'Código', 'Fecha', 'Acciones']);
    const [retrying, delivered, failed] = within(table).getAllByTestId('entrega');
    expect(retrying).toHaveTextContent('plan.cambiado');
    expect(retrying).toHaveTextContent('n.º 3');
    expect(retrying).toHaveTextContent('Reintentando');
    expect(retrying).toHaveTextContent(/Próximo intento: \d/);
    expect(retrying).toHaveTextContent('El receptor falló al procesarlo (respondió 500)');
    expect(within(retrying!).queryByRole('button', { name: /Reenviar/ })).not.toBeInTheDocument();
    expect(delivered).toHaveTextContent('Entregada');
    expect(failed).toHaveTextContent('Fallida');
    expect(failed).toHaveTextContent('El receptor no respondió a tiempo (plazo de 10 s)');
    expect(within(failed!).getByRole('button', { name: 'Reenviar usuario.suspendido n.º 1' })).toBeInTheDocument();
    expect(queriesTo(api, `${BASE}/${SUB_ID}/entregas`)).toEqual([{ limit: '10' }]);
  });

  it('Reenviar puts the delivery back in the queue, and a refusal is shown in Spanish', async () => {
    const user = userEvent.setup();
    let calls = 0;
    await start({
      [`POST ${BASE}/${SUB_ID}/entregas/1/reenviar`]: () => {
        calls++;
        return calls === 1
          ? {
              status: 409,
              body: {
                statusCode: 409,
                message: 'La suscripción está desactivada: no se le puede reenviar nada',
                code: 'SUBSCRIPTION_DISABLED',
              },
            }
          : {
              status: 200,
              body: delivery(1, {
                evento: 'usuario.suspendido',
                estado: 'pendiente',
                intentos: 0,
                proximoIntento: '2026-11-27T02:30:00.000Z',
                codigoRespuesta: null,
              }),
            };
      },
    });
    const area = await openEvents(user);
    const resend = await within(area).findByRole('button', { name: 'Reenviar usuario.suspendido n.º 1' });
    await user.click(resend);
    expect(await within(area).findByRole('alert')).toHaveTextContent(
      'La suscripción está desactivada: no se le puede reenviar nada',
    );
    await user.click(resend);
    await waitFor(() =>
      expect(within(area).queryByRole('button', { name: 'Reenviar usuario.suspendido n.º 1' })).not.toBeInTheDocument(),
    );
    const rows = within(area).getAllByTestId('entrega');
    expect(rows[2]).toHaveTextContent('Pendiente');
    expect(within(area).getByText('Entrega puesta de nuevo en cola')).toBeInTheDocument();
  });

  it('loads more by cursor, and Actualizar reads the first page again', async () => {
    const user = userEvent.setup();
    let reads = 0;
    await start({
      [`GET ${BASE}/${SUB_ID}/entregas`]: (request) => {
        reads++;
        const cursor = new URLSearchParams(request.path.split('?')[1]).get('cursor');
        return cursor
          ? { status: 200, body: { data: [delivery(1)], siguiente: null } }
          : { status: 200, body: { data: [delivery(3), delivery(2)], siguiente: 'WzJd' } };
      },
    });
    const area = await openEvents(user);
    await within(area).findByText('2 entregas');
    await user.click(within(area).getByRole('button', { name: 'Cargar más' }));
    expect(await within(area).findByText('3 entregas')).toBeInTheDocument();
    expect(within(area).queryByRole('button', { name: 'Cargar más' })).not.toBeInTheDocument();
    expect(queriesTo(api, `${BASE}/${SUB_ID}/entregas`)[1]).toEqual({ cursor: 'WzJd', limit: '10' });

    await user.click(
      within(area).getByRole('button', { name: 'Actualizar entregas a https://gestor.example.com/eventos' }),
    );
    await waitFor(() => expect(reads).toBe(3));
    expect(await within(area).findByText('2 entregas')).toBeInTheDocument();
  });
});

describe("a SAML app's events", () => {
  it("opens under its row as a client's do, and reads and writes them under the app's registry id", async () => {
    const user = userEvent.setup();
    subscriptions = [];
    const historian: SamlApp = {
      id: 4,
      idAplicacion: 12,
      nombre: 'Historiador',
      entityId: 'https://historiador.example.com/mellon/metadata',
      appId: 2,
      primeraParte: false,
      urlsAcs: ['https://historiador.example.com/mellon/postResponse'],
      urlCierreSesion: null,
      urlCierreSesionNavegador: null,
      formatoNameId: 'persistent',
      cierresPendientes: 0,
      ultimoErrorCierre: null,
      creadaEn: '2026-11-01T10:00:00.000Z',
      actualizadaEn: '2026-11-01T10:00:00.000Z',
    };
    const samlBase = '/admin/aplicaciones-conectadas/12/suscripciones';
    await start({
      'GET /admin/aplicaciones-saml': { status: 200, body: { data: [historian] } },
      [`GET ${samlBase}`]: () => ({ status: 200, body: { data: subscriptions } }),
      [`POST ${samlBase}`]: () => {
        subscriptions = [subscription({ url: 'https://historiador.example.com/eventos' })];
        return { status: 201, body: { id: SUB_ID, secreto: SECRET } };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Eventos de Historiador' }));
    const area = await screen.findByRole('region', { name: 'Eventos de Historiador' });
    expect(await within(area).findByText('Esta app no tiene suscripciones a eventos.')).toBeInTheDocument();
    await user.click(within(area).getByRole('button', { name: 'Nueva suscripción de Historiador' }));
    const dialog = screen.getByRole('dialog', { name: 'Nueva suscripción de Historiador' });
    await user.type(within(dialog).getByLabelText('URL del receptor'), 'https://historiador.example.com/eventos');
    await user.click(within(dialog).getByLabelText('Cuenta suspendida (usuario.suspendido)'));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    const secretDialog = await screen.findByRole('dialog', { name: 'Secreto de la suscripción' });
    expect(within(secretDialog).getByLabelText('Secreto de firma (whsec_...)')).toHaveValue(SECRET);
    expect(bodiesTo(api, samlBase).filter(Boolean)).toEqual([
      { url: 'https://historiador.example.com/eventos', eventos: ['usuario.suspendido'] },
    ]);
    // The list is read again under the same registry id: the new receiver shows there (and nothing is left in flight).
    await user.keyboard('{Escape}');
    expect(await within(area).findByTestId('suscripcion')).toHaveTextContent('https://historiador.example.com/eventos');
    expect(api.requests.some((r) => r.path.startsWith('/admin/clientes-oidc/'))).toBe(false);
  });
});
