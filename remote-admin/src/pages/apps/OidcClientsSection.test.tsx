import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OidcClient } from '@portal/shared';
import { firstThen } from '@portal/shared/testing/fake-api';
import { app } from '@portal/shared/testing/fixtures';
import { bodiesTo, page, renderAt, useFakeApi, type FakeApi } from '../../testing/setup';
import { OidcClientsSection } from './OidcClientsSection';

let api: FakeApi;
let clients: OidcClient[];
const SECRET = 'c2VjcmV0by1kZS1wcnVlYmEtcXVlLXNvbG8tc2UtdmUtdW5hLXZleg';
const ONCE = 'Copia el secreto ahora: no se volverá a mostrar.';

function client(clientId: string, nombre: string, overrides: Partial<OidcClient> = {}): OidcClient {
  return {
    clientId,
    nombre,
    redirectUris: [`https://${clientId}.example.com/oidc/callback`],
    postLogoutRedirectUris: [],
    backchannelLogoutUri: null,
    initiateLoginUri: null,
    publico: false,
    primeraParte: false,
    appId: null,
    scopes: ['openid'],
    sujeto: 'opaco',
    dispositivos: false,
    creadoEn: '2026-11-01T10:00:00.000Z',
    actualizadoEn: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

async function start(routes: Parameters<typeof useFakeApi>[0] = {}) {
  api = await useFakeApi({
    'GET /apps/listar': { status: 200, body: page([app(2, 'Beto Pro'), app(3, 'TX30')], 2, 1, 100) },
    'GET /admin/clientes-oidc': () => ({ status: 200, body: { data: clients } }),
    ...routes,
  });
  renderAt('/admin/apps', <OidcClientsSection />);
}

const rows = () => screen.findAllByTestId('cliente-oidc');

/** Opens 'Nuevo cliente' with a name and return addresses (pasted, as copied from the app's settings). */
async function newClient(user: ReturnType<typeof userEvent.setup>, nombre: string, redirectUris: string) {
  await rows();
  await user.click(screen.getByRole('button', { name: 'Nuevo cliente' }));
  const dialog = screen.getByRole('dialog', { name: 'Nuevo cliente' });
  await user.type(within(dialog).getByLabelText('Nombre'), nombre);
  await user.click(within(dialog).getByLabelText('URIs de redirección'));
  await user.paste(redirectUris);
  return dialog;
}
const sent = (method: string, path: string) => api.requests.filter((r) => r.method === method && r.path === path);
/** The bodies of the clients created (the list is read at the same path). */
const created = () => sent('POST', '/admin/clientes-oidc').map((r) => JSON.parse(r.body) as unknown);

beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  clients = [
    client('gestor', 'Gestor de Planta', {
      appId: 2,
      redirectUris: ['https://gestor.example.com/cb', 'http://localhost:5173/cb'],
    }),
    client('movil', 'Beto Móvil', { publico: true, primeraParte: true, redirectUris: ['betopro://auth/callback'] }),
  ];
});

afterEach(async () => {
  await api.close();
  jest.restoreAllMocks();
});

describe('the list', () => {
  it('shows each client: name, type, party, catalogue app, id and return addresses', async () => {
    await start();
    expect(screen.getByRole('heading', { name: 'Clientes OpenID Connect' })).toBeInTheDocument();
    const [gestor, movil] = await rows();
    await waitFor(() =>
      expect(
        within(gestor!).getByText(/^Confidencial · Tercera parte · App del catálogo: Beto Pro$/),
      ).toBeInTheDocument(),
    );
    expect(within(gestor!).getByText('gestor')).toBeInTheDocument();
    expect(
      within(within(gestor!).getByRole('list', { name: 'URIs de redirección:' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['https://gestor.example.com/cb', 'http://localhost:5173/cb']);
    expect(within(movil!).getByText(/^Público · Primera parte · App del catálogo: Ninguna$/)).toBeInTheDocument();
    // A public client has no secret to rotate.
    expect(within(gestor!).getByRole('button', { name: 'Rotar secreto de Gestor de Planta' })).toBeInTheDocument();
    expect(within(movil!).queryByRole('button', { name: /Rotar secreto/ })).not.toBeInTheDocument();
  });

  it('says when there is none, and offers Reintentar when the list fails', async () => {
    await start({
      'GET /admin/clientes-oidc': firstThen(
        { status: 503, body: { statusCode: 503, message: 'El servicio no está disponible. Inténtalo más tarde.' } },
        { status: 200, body: { data: [] } },
      ),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('El servicio no está disponible. Inténtalo más tarde.');
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('No hay clientes OpenID Connect registrados.')).toBeInTheDocument();
  });
});

describe('a new client', () => {
  it('sends every field, then shows the secret once with Copiar; closed, it is gone', async () => {
    const user = userEvent.setup();
    await start({
      'POST /admin/clientes-oidc': (request) => {
        const body = JSON.parse(request.body) as OidcClient;
        clients = [...clients, client('informes', body.nombre)];
        return { status: 201, body: { clientId: 'informes', clientSecret: SECRET } };
      },
    });
    const dialog = await newClient(
      user,
      'Informes XYZ',
      'https://informes.example.com/cb\n\n https://informes.example.com/cb2 \n',
    );
    const plan = within(dialog).getByLabelText('Plan en la app del catálogo (plan)');
    expect(plan).toBeDisabled();
    expect(within(dialog).getByLabelText('Identidad (openid, siempre)')).toBeChecked();
    expect(within(dialog).getByLabelText('Identidad (openid, siempre)')).toBeDisabled();

    const paste = async (label: string, text: string) => {
      await user.click(within(dialog).getByLabelText(label));
      await user.paste(text);
    };
    await paste('URIs tras cerrar sesión', 'https://informes.example.com/');
    await paste('URI de cierre de sesión por canal trasero', 'https://informes.example.com/backchannel');
    await paste('URI de inicio de sesión iniciado por terceros', 'https://informes.example.com/login');
    await user.selectOptions(within(dialog).getByLabelText('App del catálogo'), 'TX30');
    expect(plan).toBeEnabled();
    await user.click(plan);
    await user.click(within(dialog).getByLabelText('Email (email)'));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    const secretDialog = await screen.findByRole('dialog', { name: 'Secreto de Informes XYZ' });
    expect(created()).toEqual([
      {
        nombre: 'Informes XYZ',
        redirectUris: ['https://informes.example.com/cb', 'https://informes.example.com/cb2'],
        postLogoutRedirectUris: ['https://informes.example.com/'],
        backchannelLogoutUri: 'https://informes.example.com/backchannel',
        initiateLoginUri: 'https://informes.example.com/login',
        publico: false,
        primeraParte: false,
        appId: 3,
        scopes: ['openid', 'email', 'plan'],
        sujeto: 'opaco',
        dispositivos: false,
      },
    ]);
    expect(within(secretDialog).getByText(ONCE)).toBeInTheDocument();
    expect(within(secretDialog).getByLabelText('Secreto del cliente')).toHaveValue(SECRET);
    expect(within(secretDialog).getByText('informes')).toBeInTheDocument();
    await user.click(within(secretDialog).getByRole('button', { name: 'Copiar' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(within(secretDialog).getByText('Secreto copiado')).toBeInTheDocument();

    await user.click(within(secretDialog).getByRole('button', { name: 'Cerrar' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(SECRET);
    expect(screen.getByText('Cliente creado')).toBeInTheDocument();
    await waitFor(async () => expect(await rows()).toHaveLength(3));
    expect(document.body).not.toHaveTextContent(SECRET);
  });

  it("takes an app's own scheme for a public client only, checked before sending; no secret to show", async () => {
    const user = userEvent.setup();
    await start({ 'POST /admin/clientes-oidc': { status: 201, body: { clientId: 'tx30-movil' } } });
    const dialog = await newClient(user, 'TX30 Móvil', 'betopro://auth/callback');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'URIs de redirección: «betopro://auth/callback» debe ser una dirección https:// completa',
    );
    expect(sent('POST', '/admin/clientes-oidc')).toHaveLength(0);

    await user.selectOptions(within(dialog).getByLabelText('Tipo'), 'Público');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Cliente creado')).toBeInTheDocument();
    expect(created()).toEqual([
      expect.objectContaining({ publico: true, redirectUris: ['betopro://auth/callback'], appId: null }),
    ]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("shows the server's refusal naming the field with the form's label, and keeps the dialog", async () => {
    const user = userEvent.setup();
    await start({
      'POST /admin/clientes-oidc': {
        status: 400,
        body: { statusCode: 400, message: "Datos inválidos: 'redirectUris' no es válido" },
      },
    });
    const dialog = await newClient(user, 'X', 'https://x.example.com/cb');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent(
        "Datos inválidos: 'URIs de redirección' no es válido",
      ),
    );
  });
});

it('edits a client with every field sent; its type stays', async () => {
  const user = userEvent.setup();
  await start({
    'PUT /admin/clientes-oidc/gestor': (request) => ({
      status: 200,
      body: { ...clients[0], ...JSON.parse(request.body) },
    }),
  });
  const [gestor] = await rows();
  await user.click(within(gestor!).getByRole('button', { name: 'Editar cliente Gestor de Planta' }));
  const dialog = screen.getByRole('dialog', { name: 'Editar cliente Gestor de Planta' });
  expect(within(dialog).getByLabelText('URIs de redirección')).toHaveValue(
    'https://gestor.example.com/cb\nhttp://localhost:5173/cb',
  );
  expect(within(dialog).getByLabelText('Tipo')).toBeDisabled();
  expect(within(dialog).getByText('El tipo no se puede cambiar después de crear el cliente.')).toBeInTheDocument();
  await user.click(within(dialog).getByLabelText('Primera parte'));
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  expect(await screen.findByText('Cliente actualizado')).toBeInTheDocument();
  expect(bodiesTo(api, '/admin/clientes-oidc/gestor')).toEqual([
    {
      nombre: 'Gestor de Planta',
      redirectUris: ['https://gestor.example.com/cb', 'http://localhost:5173/cb'],
      postLogoutRedirectUris: [],
      backchannelLogoutUri: null,
      initiateLoginUri: null,
      publico: false,
      primeraParte: true,
      appId: 2,
      scopes: ['openid'],
      sujeto: 'opaco',
      dispositivos: false,
    },
  ]);
  expect(sent('GET', '/admin/clientes-oidc')).toHaveLength(2);
});

describe("'Identificador de la persona'", () => {
  const options = {
    Opaco: 'Un código aleatorio de la cuenta, el mismo en todas las apps con esta opción.',
    'Distinto en cada app': 'Un código que solo esta app conoce: dos apps no pueden cruzar a sus personas.',
    'Número de cuenta': 'El número de la cuenta en el portal; lo conservan las apps registradas antes de esta opción.',
  };
  const changed = /recibirá identificadores nuevos para todas las personas/;

  it('offers three kinds, each explained in one line; a new client is opaque unless another is chosen', async () => {
    const user = userEvent.setup();
    await start({
      'POST /admin/clientes-oidc': { status: 201, body: { clientId: 'tx30-movil', clientSecret: SECRET } },
    });
    const dialog = await newClient(user, 'Informes', 'https://informes.example.com/cb');
    const group = within(dialog).getByRole('group', { name: 'Identificador de la persona' });
    for (const [label, hint] of Object.entries(options))
      expect(within(group).getByRole('radio', { name: label })).toHaveAccessibleDescription(hint);
    expect(within(group).getByRole('radio', { name: 'Opaco' })).toBeChecked();
    await user.click(within(group).getByRole('radio', { name: 'Distinto en cada app' }));
    // A new client has no app that stored identifiers yet: nothing to warn about.
    expect(within(dialog).queryByText(changed)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await screen.findByRole('dialog', { name: 'Secreto de Informes' });
    expect(created()).toEqual([expect.objectContaining({ sujeto: 'por_cliente' })]);
  });

  it("shows each client's kind, and warns before saving a change that the app will see new identifiers", async () => {
    const user = userEvent.setup();
    clients[0] = { ...clients[0]!, sujeto: 'numerico' };
    await start({
      'PUT /admin/clientes-oidc/gestor': (request) => ({
        status: 200,
        body: { ...clients[0], ...JSON.parse(request.body) },
      }),
    });
    const [gestor, movil] = await rows();
    expect(gestor).toHaveTextContent('Identificador de la persona: Número de cuenta');
    expect(movil).toHaveTextContent('Identificador de la persona: Opaco');
    await user.click(within(gestor!).getByRole('button', { name: 'Editar cliente Gestor de Planta' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar cliente Gestor de Planta' });
    expect(within(dialog).getByRole('radio', { name: 'Número de cuenta' })).toBeChecked();
    expect(within(dialog).queryByText(changed)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: 'Opaco' }));
    expect(within(dialog).getByRole('status')).toHaveTextContent(changed);
    await user.click(within(dialog).getByRole('radio', { name: 'Número de cuenta' }));
    expect(within(dialog).queryByText(changed)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: 'Distinto en cada app' }));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Cliente actualizado')).toBeInTheDocument();
    expect(bodiesTo(api, '/admin/clientes-oidc/gestor')).toEqual([expect.objectContaining({ sujeto: 'por_cliente' })]);
  });
});

describe("'Inicio de sesión en dispositivos'", () => {
  const hint =
    'Un aparato sin teclado ni navegador (un panel de planta, un quiosco, una herramienta de línea de comandos) ' +
    'muestra un código que la persona confirma en /dispositivo.';

  it('lets a public client that signs in on devices only go without a return address, ticked from the keyboard', async () => {
    const user = userEvent.setup();
    await start({
      'POST /admin/clientes-oidc': (request) => {
        clients = [...clients, client('panel', 'Panel de Planta', JSON.parse(request.body) as Partial<OidcClient>)];
        return { status: 201, body: { clientId: 'panel' } };
      },
    });
    await rows();
    await user.click(screen.getByRole('button', { name: 'Nuevo cliente' }));
    const dialog = screen.getByRole('dialog', { name: 'Nuevo cliente' });
    await user.type(within(dialog).getByLabelText('Nombre'), 'Panel de Planta');
    const devices = within(dialog).getByRole('checkbox', { name: 'Inicio de sesión en dispositivos' });
    expect(devices).not.toBeChecked();
    expect(devices).toHaveAccessibleDescription(hint);
    devices.focus();
    await user.keyboard(' ');
    expect(devices).toBeChecked();

    // A confidential client still comes back to a web address after its code flow.
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Escribe al menos una URI de redirección');
    expect(sent('POST', '/admin/clientes-oidc')).toHaveLength(0);

    await user.selectOptions(within(dialog).getByLabelText('Tipo'), 'Público');
    expect(within(dialog).getByLabelText('URIs de redirección')).toHaveAccessibleDescription(
      'Una por línea. Un cliente público que solo inicia sesión en dispositivos no necesita ninguna.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Cliente creado')).toBeInTheDocument();
    expect(created()).toEqual([
      expect.objectContaining({ nombre: 'Panel de Planta', publico: true, dispositivos: true, redirectUris: [] }),
    ]);
    // The list says so, and lists no return address for it.
    const panel = (await waitFor(async () => {
      const all = await rows();
      expect(all).toHaveLength(3);
      return all[2];
    }))!;
    expect(within(panel).getByText('Inicio de sesión en dispositivos')).toBeInTheDocument();
    expect(within(panel).queryByRole('list')).not.toBeInTheDocument();
    expect(within((await rows())[0]!).queryByText('Inicio de sesión en dispositivos')).not.toBeInTheDocument();
  });

  it('is sent when changed; without it a public client needs its return address again', async () => {
    const user = userEvent.setup();
    clients[1] = { ...clients[1]!, dispositivos: true };
    await start({
      'PUT /admin/clientes-oidc/movil': (request) => ({
        status: 200,
        body: { ...clients[1], ...JSON.parse(request.body) },
      }),
    });
    const [, movil] = await rows();
    expect(within(movil!).getByText('Inicio de sesión en dispositivos')).toBeInTheDocument();
    await user.click(within(movil!).getByRole('button', { name: 'Editar cliente Beto Móvil' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar cliente Beto Móvil' });
    const devices = within(dialog).getByRole('checkbox', { name: 'Inicio de sesión en dispositivos' });
    expect(devices).toBeChecked();
    await user.clear(within(dialog).getByLabelText('URIs de redirección'));
    await user.click(devices);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Escribe al menos una URI de redirección');
    await user.type(within(dialog).getByLabelText('URIs de redirección'), 'betopro://auth/callback');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Cliente actualizado')).toBeInTheDocument();
    expect(bodiesTo(api, '/admin/clientes-oidc/movil')).toEqual([
      expect.objectContaining({ publico: true, dispositivos: false, redirectUris: ['betopro://auth/callback'] }),
    ]);
  });
});

it('rotates a secret only after confirming, then shows the new one once', async () => {
  const user = userEvent.setup();
  await start({
    'POST /admin/clientes-oidc/gestor/secreto': { status: 200, body: { clientId: 'gestor', clientSecret: SECRET } },
  });
  const [gestor] = await rows();
  const rotate = within(gestor!).getByRole('button', { name: 'Rotar secreto de Gestor de Planta' });
  await user.click(rotate);
  let confirm = screen.getByRole('dialog', { name: '¿Rotar el secreto de Gestor de Planta?' });
  expect(confirm).toHaveTextContent('El secreto actual dejará de funcionar en ese momento');
  await user.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
  expect(sent('POST', '/admin/clientes-oidc/gestor/secreto')).toHaveLength(0);

  await user.click(rotate);
  confirm = screen.getByRole('dialog', { name: '¿Rotar el secreto de Gestor de Planta?' });
  await user.click(within(confirm).getByRole('button', { name: 'Rotar secreto' }));
  const secretDialog = await screen.findByRole('dialog', { name: 'Secreto de Gestor de Planta' });
  expect(within(secretDialog).getByText(ONCE)).toBeInTheDocument();
  expect(within(secretDialog).getByLabelText('Secreto del cliente')).toHaveValue(SECRET);
  expect(sent('POST', '/admin/clientes-oidc/gestor/secreto')).toHaveLength(1);
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(document.body).not.toHaveTextContent(SECRET);
});

it('deletes a client only after confirming; Escape keeps it; a failure stays in the dialog', async () => {
  const user = userEvent.setup();
  let refuse = true;
  await start({
    'DELETE /admin/clientes-oidc/movil': () => {
      if (refuse) return { status: 409, body: { statusCode: 409, message: 'No se puede eliminar ahora.' } };
      clients = clients.filter((c) => c.clientId !== 'movil');
      return { status: 204 };
    },
  });
  const [, movil] = await rows();
  const remove = within(movil!).getByRole('button', { name: 'Eliminar cliente Beto Móvil' });
  await user.click(remove);
  expect(screen.getByRole('dialog', { name: '¿Eliminar el cliente Beto Móvil?' })).toBeInTheDocument();
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(sent('DELETE', '/admin/clientes-oidc/movil')).toHaveLength(0);

  await user.click(remove);
  const confirm = screen.getByRole('dialog', { name: '¿Eliminar el cliente Beto Móvil?' });
  await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
  expect(await within(confirm).findByRole('alert')).toHaveTextContent('No se puede eliminar ahora.');
  refuse = false;
  await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
  expect(await screen.findByText('Cliente eliminado')).toBeInTheDocument();
  await waitFor(async () => expect(await rows()).toHaveLength(1));
  expect(screen.queryByText('Beto Móvil')).not.toBeInTheDocument();
});
