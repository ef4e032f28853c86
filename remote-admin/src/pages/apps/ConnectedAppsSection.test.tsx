// 'Aplicaciones conectadas' of the apps page, as a platform administrator uses it: every partner app in one list,
// each row naming its protocol. OpenID Connect clients (type, party, catalogue app, return addresses, device sign-in,
// kind of subject; the secret shown once) and SAML apps (the portal's metadata address to give to partners, entity ID,
// ACS addresses, portal app, NameID, logout, a notice while logouts to it fail); connecting one ('Conectar aplicación',
// the protocol first), editing, rotating and deleting: the bodies the API receives, its Spanish refusal said in the
// dialog, and the keyboard kept in each dialog and given back to the button that opened it.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OidcClient, SamlApp } from '@portal/shared';
import { firstThen } from '@portal/shared/testing/fake-api';
import { app } from '@portal/shared/testing/fixtures';
import { bodiesTo, page, renderAt, useFakeApi, type FakeApi } from '../../testing/setup';
import { ConnectedAppsSection } from './ConnectedAppsSection';

let api: FakeApi;
let clients: OidcClient[];
let samlApps: SamlApp[];
const SECRET = 'c2VjcmV0by1kZS1wcnVlYmEtcXVlLXNvbG8tc2UtdmUtdW5hLXZleg';
const ONCE = 'Copia el secreto ahora: no se volverá a mostrar.';

function client(clientId: string, nombre: string, overrides: Partial<OidcClient> = {}): OidcClient {
  return {
    clientId,
    idAplicacion: 100 + clientId.length,
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

/** A partner app's SP metadata, as mod_auth_mellon writes it (shortened). */
const MELLON_METADATA = `<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://historian.example.com/mellon/metadata">
  <SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://historian.example.com/mellon/postResponse" index="0"/>
  </SPSSODescriptor>
</EntityDescriptor>`;

function samlApp(id: number, nombre: string, overrides: Partial<SamlApp> = {}): SamlApp {
  return {
    id,
    idAplicacion: 200 + id,
    nombre,
    primeraParte: false,
    entityId: `https://app${id}.example.com/saml/metadata`,
    appId: null,
    urlsAcs: [`https://app${id}.example.com/saml/acs`],
    urlCierreSesion: null,
    urlCierreSesionNavegador: null,
    formatoNameId: 'persistent',
    cierresPendientes: 0,
    ultimoErrorCierre: null,
    creadaEn: '2026-11-01T10:00:00.000Z',
    actualizadaEn: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

async function start(routes: Parameters<typeof useFakeApi>[0] = {}) {
  api = await useFakeApi({
    'GET /apps/listar': { status: 200, body: page([app(2, 'Beto Pro'), app(3, 'TX30')], 2, 1, 100) },
    'GET /admin/clientes-oidc': () => ({ status: 200, body: { data: clients } }),
    'GET /admin/aplicaciones-saml': () => ({ status: 200, body: { data: samlApps } }),
    ...routes,
  });
  renderAt('/admin/apps', <ConnectedAppsSection />);
}

const rows = () => screen.findAllByTestId('cliente-oidc');
const samlRows = () => screen.findAllByTestId('aplicacion-saml');

/** Opens 'Conectar aplicación' and chooses a protocol (OpenID Connect unless told). */
async function connect(user: ReturnType<typeof userEvent.setup>, protocol = 'OpenID Connect') {
  await rows();
  await user.click(screen.getByRole('button', { name: 'Conectar aplicación' }));
  const dialog = screen.getByRole('dialog', { name: 'Conectar aplicación' });
  await user.click(within(dialog).getByRole('radio', { name: protocol }));
  return dialog;
}

/** A new OpenID Connect client with a name and return addresses (pasted, as copied from the app's settings). */
async function newClient(user: ReturnType<typeof userEvent.setup>, nombre: string, redirectUris: string) {
  const dialog = await connect(user);
  await user.type(within(dialog).getByLabelText('Nombre'), nombre);
  await user.click(within(dialog).getByLabelText('URIs de redirección'));
  await user.paste(redirectUris);
  return dialog;
}
const sent = (method: string, path: string) => api.requests.filter((r) => r.method === method && r.path === path);
/** The bodies sent, parsed. */
const bodies = (method: string, path: string) => sent(method, path).map((r) => JSON.parse(r.body || 'null'));
/** The bodies of the clients created (the list is read at the same path). */
const created = () => bodies('POST', '/admin/clientes-oidc');

beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  clients = [
    client('gestor', 'Gestor de Planta', {
      appId: 2,
      redirectUris: ['https://gestor.example.com/cb', 'http://localhost:5173/cb'],
    }),
    client('movil', 'Beto Móvil', { publico: true, primeraParte: true, redirectUris: ['betopro://auth/callback'] }),
  ];
  samlApps = [
    samlApp(1, 'Historiador de Planta', {
      appId: 2,
      urlsAcs: ['https://historian.example.com/mellon/postResponse', 'https://historian.example.com/acs2'],
      urlCierreSesion: 'https://historian.example.com/mellon/logout',
    }),
    samlApp(2, 'Mantenimiento', {
      formatoNameId: 'emailAddress',
      cierresPendientes: 3,
      ultimoErrorCierre: 'La aplicación no respondió en 10 s',
    }),
  ];
});

afterEach(async () => {
  await api.close();
  jest.restoreAllMocks();
});

describe('one list of connected apps', () => {
  it('lists the OpenID Connect clients and the SAML apps together, each row naming its protocol', async () => {
    await start();
    await samlRows();
    const protocols = screen
      .getAllByRole('listitem')
      .filter((item) => item.dataset.testid)
      .map((item) => [
        within(item).getByRole('heading', { level: 3 }).textContent,
        item.querySelector('.protocol')?.textContent,
      ]);
    expect(protocols).toEqual([
      ['Gestor de Planta', 'OpenID Connect'],
      ['Beto Móvil', 'OpenID Connect'],
      ['Historiador de Planta', 'SAML 2.0'],
      ['Mantenimiento', 'SAML 2.0'],
    ]);
    // One way to add one, whatever the protocol.
    expect(
      screen.getAllByRole('button', { name: /^(Conectar aplicación|Nuevo cliente|Nueva aplicación SAML)$/ }),
    ).toHaveLength(1);
  });

  it("'Conectar aplicación' asks for the protocol first and keeps what was typed in each part; an edit keeps its protocol", async () => {
    const user = userEvent.setup();
    await start({
      'POST /admin/aplicaciones-saml': { status: 201, body: { id: 9, entityId: 'https://x.example.com' } },
    });
    const dialog = await connect(user);
    expect(within(dialog).getByRole('radio', { name: 'OpenID Connect' })).toBeChecked();
    await user.type(within(dialog).getByLabelText('Nombre'), 'Informes');
    expect(within(dialog).getByLabelText('Tipo')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('radio', { name: 'SAML 2.0' }));
    expect(within(dialog).getByRole('radio', { name: 'SAML 2.0' })).toBeChecked();
    expect(within(dialog).queryByLabelText('Tipo')).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('Nombre')).toHaveValue('');
    await user.type(within(dialog).getByLabelText('Nombre'), 'Historiador Norte');
    await user.click(within(dialog).getByRole('radio', { name: 'OpenID Connect' }));
    expect(within(dialog).getByLabelText('Nombre')).toHaveValue('Informes');
    await user.click(within(dialog).getByRole('radio', { name: 'SAML 2.0' }));
    expect(within(dialog).getByLabelText('Nombre')).toHaveValue('Historiador Norte');
    await user.click(within(dialog).getByLabelText('Metadatos de la aplicación (XML)'));
    await user.paste(MELLON_METADATA);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Aplicación SAML creada')).toBeInTheDocument();
    expect(bodies('POST', '/admin/aplicaciones-saml')).toEqual([
      { nombre: 'Historiador Norte', metadata: MELLON_METADATA, primeraParte: false },
    ]);
    expect(sent('POST', '/admin/clientes-oidc')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Editar aplicación SAML Historiador de Planta' }));
    const edit = screen.getByRole('dialog', { name: 'Editar aplicación SAML Historiador de Planta' });
    expect(within(edit).queryByRole('radio')).not.toBeInTheDocument();
  });
});

describe('OpenID Connect: the list', () => {
  it('shows each client: name, type, party, catalogue app, id and return addresses', async () => {
    await start();
    expect(screen.getByRole('heading', { name: 'Aplicaciones conectadas' })).toBeInTheDocument();
    const [gestor, movil] = await rows();
    expect(within(gestor!).getByText('OpenID Connect')).toBeInTheDocument();
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
    samlApps = [];
    await start({
      'GET /admin/clientes-oidc': firstThen(
        { status: 503, body: { statusCode: 503, message: 'El servicio no está disponible. Inténtalo más tarde.' } },
        { status: 200, body: { data: [] } },
      ),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('El servicio no está disponible. Inténtalo más tarde.');
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('No hay aplicaciones conectadas.')).toBeInTheDocument();
  });
});

describe('OpenID Connect: a new client', () => {
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

it("saved unchanged, 'Editar cliente' sends back every permission the client has: roles and organization too", async () => {
  const user = userEvent.setup();
  clients = [
    client('planta', 'Planta Norte', {
      appId: 2,
      scopes: ['openid', 'profile', 'email', 'plan', 'roles', 'organization', 'offline_access'],
    }),
  ];
  await start({
    'PUT /admin/clientes-oidc/planta': (request) => ({
      status: 200,
      body: { ...clients[0], ...JSON.parse(request.body) },
    }),
  });
  const [planta] = await rows();
  await user.click(within(planta!).getByRole('button', { name: 'Editar cliente Planta Norte' }));
  const dialog = screen.getByRole('dialog', { name: 'Editar cliente Planta Norte' });
  const permissions = within(within(dialog).getByRole('group', { name: 'Permisos' }));
  expect(permissions.getByRole('checkbox', { name: 'Roles en la app del catálogo (roles)' })).toBeChecked();
  expect(permissions.getByRole('checkbox', { name: 'Empresas y roles (organization)' })).toBeChecked();
  expect(permissions.getByRole('checkbox', { name: 'Teléfono (phone)' })).not.toBeChecked();
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  expect(await screen.findByText('Cliente actualizado')).toBeInTheDocument();
  const [saved] = bodiesTo(api, '/admin/clientes-oidc/planta') as { scopes: string[] }[];
  expect([...saved!.scopes].sort()).toEqual([
    'email',
    'offline_access',
    'openid',
    'organization',
    'plan',
    'profile',
    'roles',
  ]);
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
    const dialog = await connect(user);
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

describe('SAML: the list', () => {
  it("shows the portal's metadata address to copy, and each app with what it was registered with", async () => {
    const user = userEvent.setup();
    await start();
    expect(screen.getByRole('heading', { name: 'Aplicaciones conectadas' })).toBeInTheDocument();
    const address = `${api.url}/saml/idp/metadata`;
    expect(screen.getByText(address)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copiar metadatos del portal' }));
    await expect(navigator.clipboard.readText()).resolves.toBe(address);
    expect(await screen.findByText('Copiado')).toHaveAttribute('role', 'status');

    const [historian, maintenance] = await samlRows();
    expect(within(historian!).getByText('SAML 2.0')).toBeInTheDocument();
    expect(within(historian!).getByRole('heading', { name: 'Historiador de Planta' })).toBeInTheDocument();
    expect(within(historian!).getByText('https://app1.example.com/saml/metadata')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        within(historian!).getByText(
          /^Aplicación del portal: Beto Pro · Formato del NameID: Persistente \(opaco, distinto en cada aplicación\)$/,
        ),
      ).toBeInTheDocument(),
    );
    expect(
      within(within(historian!).getByRole('list', { name: 'URLs de respuesta (ACS):' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['https://historian.example.com/mellon/postResponse', 'https://historian.example.com/acs2']);
    expect(
      within(historian!).getByText('Cierre de sesión (SLO): https://historian.example.com/mellon/logout'),
    ).toBeInTheDocument();
    expect(within(historian!).queryByText(/cierres? de sesión no llegó/)).not.toBeInTheDocument();

    expect(
      within(maintenance!).getByText(/^Aplicación del portal: Ninguna · Formato del NameID: Email$/),
    ).toBeInTheDocument();
    expect(
      within(maintenance!).getByText('Cierre de sesión (SLO): La aplicación no publica cierre de sesión'),
    ).toBeInTheDocument();
  });

  it('shows the logout the browser carries for an app that publishes only HTTP-Redirect, and why it failed', async () => {
    samlApps = [
      samlApp(5, 'Calidad', {
        urlCierreSesionNavegador: 'https://calidad.example.com/mellon/logout',
        ultimoErrorCierre: 'la aplicación no devolvió el navegador con su respuesta de cierre de sesión',
      }),
    ];
    await start();
    const [quality] = await samlRows();
    expect(
      within(quality!).getByText(
        'Cierre de sesión (SLO): No publica el cierre SOAP: lo lleva el navegador al cerrar sesión en el portal',
      ),
    ).toBeInTheDocument();
    expect(
      within(quality!).getByText(
        'Cierre de sesión por el navegador (HTTP-Redirect): https://calidad.example.com/mellon/logout',
      ),
    ).toBeInTheDocument();
    expect(within(quality!).getByRole('status')).toHaveTextContent(
      'Último error al cerrar sesión: la aplicación no devolvió el navegador con su respuesta de cierre de sesión',
    );
  });

  it('says when logouts to an app failed and are being retried, and the last error', async () => {
    samlApps = [
      samlApp(2, 'Mantenimiento', { cierresPendientes: 3, ultimoErrorCierre: 'La aplicación no respondió en 10 s' }),
      samlApp(3, 'Calidad', { cierresPendientes: 1 }),
      samlApp(4, 'Compras', { ultimoErrorCierre: 'La aplicación respondió 500' }),
    ];
    await start();
    const [maintenance, quality, purchases] = await samlRows();
    expect(within(maintenance!).getByRole('status')).toHaveTextContent(
      '3 cierres de sesión no llegaron a la aplicación: se reintentan solos. Último error al cerrar sesión: La aplicación no respondió en 10 s',
    );
    expect(within(quality!).getByRole('status')).toHaveTextContent(
      'Un cierre de sesión no llegó a la aplicación: se reintenta solo.',
    );
    expect(within(purchases!).getByRole('status')).toHaveTextContent(
      'Último error al cerrar sesión: La aplicación respondió 500',
    );
  });

  it('says when there is none, and offers Reintentar when the list fails', async () => {
    clients = [];
    await start({
      'GET /admin/aplicaciones-saml': firstThen(
        { status: 503, body: { statusCode: 503, message: 'El servicio no está disponible. Inténtalo más tarde.' } },
        { status: 200, body: { data: [] } },
      ),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('El servicio no está disponible. Inténtalo más tarde.');
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('No hay aplicaciones conectadas.')).toBeInTheDocument();
  });
});

describe('SAML: a new app', () => {
  it('asks for a name and the metadata first, then sends the name, the metadata and the portal app', async () => {
    const user = userEvent.setup();
    await start({
      'POST /admin/aplicaciones-saml': (request) => {
        const body = JSON.parse(request.body) as { nombre: string };
        samlApps = [...samlApps, samlApp(9, body.nombre)];
        return { status: 201, body: { id: 9, entityId: 'https://historian.example.com/mellon/metadata' } };
      },
    });
    const dialog = await connect(user, 'SAML 2.0');
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('El nombre es requerido');
    await user.type(within(dialog).getByLabelText('Nombre'), 'Historiador Norte');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Pega o carga los metadatos de la aplicación (XML)');
    expect(bodies('POST', '/admin/aplicaciones-saml')).toEqual([]);

    await user.upload(
      within(dialog).getByLabelText('Cargar archivo XML'),
      new File([MELLON_METADATA], 'historian.xml', { type: 'text/xml' }),
    );
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Metadatos de la aplicación (XML)')).toHaveValue(MELLON_METADATA),
    );
    expect(within(dialog).getByLabelText('Aplicación del portal')).toHaveValue('0');
    await user.selectOptions(within(dialog).getByLabelText('Aplicación del portal'), 'TX30');
    // The suite's own app: the person is not asked for consent, as for a first-party OpenID Connect client.
    expect(within(dialog).getByLabelText('Primera parte')).not.toBeChecked();
    await user.click(within(dialog).getByLabelText('Primera parte'));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Aplicación SAML creada')).toBeInTheDocument();
    expect(bodies('POST', '/admin/aplicaciones-saml')).toEqual([
      { nombre: 'Historiador Norte', metadata: MELLON_METADATA, appId: 3, primeraParte: true },
    ]);
    await waitFor(async () => expect(await samlRows()).toHaveLength(3));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("without a portal app sends none; the API's refusal stays in the dialog in its words", async () => {
    const user = userEvent.setup();
    const refusal = 'Ya hay una aplicación SAML con el identificador https://historian.example.com/mellon/metadata.';
    await start({
      'POST /admin/aplicaciones-saml': {
        status: 409,
        body: { statusCode: 409, code: 'SP_EXISTENTE', message: refusal },
      },
    });
    const dialog = await connect(user, 'SAML 2.0');
    await user.type(within(dialog).getByLabelText('Nombre'), '  Historiador  ');
    await user.click(within(dialog).getByLabelText('Metadatos de la aplicación (XML)'));
    await user.paste(MELLON_METADATA);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    expect(bodies('POST', '/admin/aplicaciones-saml')).toEqual([
      { nombre: 'Historiador', metadata: MELLON_METADATA, primeraParte: false },
    ]);
    expect(within(dialog).getByLabelText('Nombre')).toHaveValue('  Historiador  ');
  });

  it('Escape closes the dialog without sending, and the keyboard is back on its button', async () => {
    const user = userEvent.setup();
    await start();
    await samlRows();
    const opener = screen.getByRole('button', { name: 'Conectar aplicación' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Conectar aplicación' });
    await user.click(within(dialog).getByRole('radio', { name: 'SAML 2.0' }));
    // Tab goes round inside the dialog.
    for (let i = 0; i < 8; i += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
    expect(api.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

describe('SAML: an existing app', () => {
  it('edits it: the name and app as saved, the metadata kept when left empty, the app taken away', async () => {
    const user = userEvent.setup();
    await start({
      'PUT /admin/aplicaciones-saml/1': (request) => {
        const body = JSON.parse(request.body) as { nombre: string };
        samlApps = samlApps.map((one) => (one.id === 1 ? { ...one, nombre: body.nombre, appId: null } : one));
        return { status: 200, body: samlApps[0] };
      },
    });
    await samlRows();
    await user.click(screen.getByRole('button', { name: 'Editar aplicación SAML Historiador de Planta' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar aplicación SAML Historiador de Planta' });
    expect(within(dialog).getByLabelText('Nombre')).toHaveValue('Historiador de Planta');
    expect(within(dialog).getByLabelText('Metadatos de la aplicación (XML)')).toHaveValue('');
    expect(within(dialog).getByText('Vacío: se mantienen los metadatos guardados.')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByLabelText('Aplicación del portal')).toHaveValue('2'));
    const name = within(dialog).getByLabelText('Nombre');
    await user.clear(name);
    await user.type(name, 'Historiador Sur');
    await user.selectOptions(within(dialog).getByLabelText('Aplicación del portal'), 'Ninguna');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Aplicación SAML actualizada')).toBeInTheDocument();
    expect(bodies('PUT', '/admin/aplicaciones-saml/1')).toEqual([{ nombre: 'Historiador Sur', primeraParte: false }]);
    expect(await screen.findByRole('heading', { name: 'Historiador Sur' })).toBeInTheDocument();
  });

  it('new metadata pasted on an edit is sent', async () => {
    const user = userEvent.setup();
    await start({ 'PUT /admin/aplicaciones-saml/2': { status: 200, body: samlApp(2, 'Mantenimiento') } });
    await samlRows();
    await user.click(screen.getByRole('button', { name: 'Editar aplicación SAML Mantenimiento' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar aplicación SAML Mantenimiento' });
    await user.click(within(dialog).getByLabelText('Metadatos de la aplicación (XML)'));
    await user.paste(MELLON_METADATA);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Aplicación SAML actualizada')).toBeInTheDocument();
    expect(bodiesTo(api, '/admin/aplicaciones-saml/2')).toEqual([
      { nombre: 'Mantenimiento', metadata: MELLON_METADATA, primeraParte: false },
    ]);
  });

  it('deletes it only after the question; Escape or Cancelar sends nothing and gives the keyboard back', async () => {
    const user = userEvent.setup();
    await start({
      'DELETE /admin/aplicaciones-saml/2': () => {
        samlApps = samlApps.filter((one) => one.id !== 2);
        return { status: 204 };
      },
    });
    await samlRows();
    const remove = screen.getByRole('button', { name: 'Eliminar aplicación SAML Mantenimiento' });
    await user.click(remove);
    let question = screen.getByRole('dialog', { name: '¿Eliminar la aplicación SAML Mantenimiento?' });
    expect(question).toContainElement(document.activeElement as HTMLElement);
    expect(
      within(question).getByText('La aplicación dejará de poder iniciar sesión con el portal. No se puede deshacer.'),
    ).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(remove).toHaveFocus();
    await user.click(remove);
    question = screen.getByRole('dialog', { name: '¿Eliminar la aplicación SAML Mantenimiento?' });
    await user.click(within(question).getByRole('button', { name: 'Cancelar' }));
    expect(api.requests.filter((r) => r.method === 'DELETE')).toEqual([]);

    await user.click(remove);
    question = screen.getByRole('dialog', { name: '¿Eliminar la aplicación SAML Mantenimiento?' });
    await user.click(within(question).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Aplicación SAML eliminada')).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      '/admin/aplicaciones-saml/2',
    ]);
    await waitFor(() => expect(screen.queryByText('Mantenimiento')).not.toBeInTheDocument());
    expect(await samlRows()).toHaveLength(1);
  });

  it("says the API's refusal to delete in the question", async () => {
    const user = userEvent.setup();
    const refusal = 'No se pudo eliminar la aplicación SAML: inténtalo de nuevo.';
    await start({
      'DELETE /admin/aplicaciones-saml/1': { status: 500, body: { statusCode: 500, message: refusal } },
    });
    await samlRows();
    await user.click(screen.getByRole('button', { name: 'Eliminar aplicación SAML Historiador de Planta' }));
    const question = screen.getByRole('dialog', { name: '¿Eliminar la aplicación SAML Historiador de Planta?' });
    await user.click(within(question).getByRole('button', { name: 'Eliminar' }));
    expect(await within(question).findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.getAllByTestId('aplicacion-saml')).toHaveLength(2);
  });
});
