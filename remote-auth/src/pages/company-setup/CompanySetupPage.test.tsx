// /configurar-empresa#cfg_…, the company's setup page without an account: the secret off the address bar and sent
// only as a bearer token, the company and its three steps, the panel's form saving through the link, a directory
// token shown once, a test's result read with the link, and a closed link's Spanish page with no step.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { whenApiIdle } from '@portal/shared';
import { type FakeApi, renderAt, useFakeApi } from '../../testing/render';
import CompanySetupPage from './CompanySetupPage';

const SECRET = `cfg_${'A'.repeat(43)}`;
const PAGE = {
  enlace: { id: 3, venceEn: '2027-03-01T15:00:00.000Z' },
  empresa: { id: 9, nombre: 'Textil Vicuña S.A.C.' },
  dominios: [
    {
      dominio: 'vicuna.pe',
      verificado: false,
      verificadoPor: null,
      verificadoEn: null,
      registroTxt: { nombre: '_portal-verificacion.vicuna.pe', valor: 'portal-verificacion=abc123' },
    },
    {
      dominio: 'vicuna.com.pe',
      verificado: true,
      verificadoPor: 'dns',
      verificadoEn: '2027-02-01T10:00:00.000Z',
      registroTxt: { nombre: '_portal-verificacion.vicuna.com.pe', valor: 'portal-verificacion=def456' },
    },
  ],
  inicioDeSesion: {
    direcciones: {
      redirectUri: 'http://api.test/auth/empresa/callback',
      saml: {
        entityId: 'http://api.test/auth/empresa/saml/9',
        acsUrl: 'http://api.test/auth/empresa/saml/9/acs',
        metadataUrl: 'http://api.test/auth/empresa/saml/9/metadata',
      },
    },
    proveedor: null,
  },
  directorio: { urlBase: 'http://api.test/scim/v2' },
};

let api: FakeApi;
afterEach(async () => {
  await whenApiIdle();
  await api?.close();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
  jest.restoreAllMocks();
});

/** The page opened at an address as the browser has it (the page reads the fragment from the real location). */
function openAt(address: string) {
  window.history.replaceState(null, '', address);
  return renderAt(address.split('#')[0] ?? address, <CompanySetupPage />);
}

const steps = () => screen.queryAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);

/** The page as the provider brings IT back from 'Probar conexión', the link's OIDC provider saved, and `result` read. */
function returnFromTest(result: Record<string, unknown>) {
  sessionStorage.setItem('portal.configurar-empresa', SECRET);
  return useFakeApi({
    'GET /configuracion-empresa': {
      status: 200,
      body: {
        ...PAGE,
        inicioDeSesion: {
          ...PAGE.inicioDeSesion,
          proveedor: {
            tipo: 'oidc',
            issuer: 'https://idp.test',
            clientId: 'cliente-1',
            dominios: ['vicuna.com.pe'],
            permitirContrasena: true,
            actualizado: '2027-02-01T10:00:00.000Z',
            ultimoAcceso: null,
            ultimoError: null,
            ultimoErrorEn: null,
          },
        },
      },
    },
    'POST /configuracion-empresa/prueba/resultado': { status: 200, body: result },
  });
}

describe('the setup page opened by its link', () => {
  it('takes the secret off the address, sends it only as a bearer, names the company and its three steps', async () => {
    api = await useFakeApi({ 'GET /configuracion-empresa': { status: 200, body: PAGE } });
    openAt(`/configurar-empresa#${SECRET}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Configura el acceso de Textil Vicuña S.A.C.' }),
    ).toBeInTheDocument();
    expect(steps()).toEqual(['1. Dominio', '2. Inicio de sesión', '3. Directorio']);
    expect(window.location.hash).toBe('');
    expect(window.location.href).not.toContain('cfg_');
    expect(api.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${SECRET}`]);
    expect(api.requests.every((request) => !request.path.includes('cfg_'))).toBe(true);
    // Step 1: the TXT record of the domain waiting for it, each part with Copiar.
    const waiting = screen.getByRole('listitem', { name: 'vicuna.pe' });
    expect(within(waiting).getByText('portal-verificacion=abc123')).toBeInTheDocument();
    expect(within(waiting).getByRole('button', { name: 'Copiar Valor del registro TXT' })).toBeInTheDocument();
    expect(within(waiting).getByRole('button', { name: 'Comprobar' })).toBeInTheDocument();
    // Step 2: the redirect address for OpenID Connect, with Copiar.
    expect(screen.getByText('http://api.test/auth/empresa/callback')).toBeInTheDocument();
  });

  it("saves the provider with the panel's form through the link, for the company's verified domains", async () => {
    const user = userEvent.setup();
    api = await useFakeApi({
      'GET /configuracion-empresa': { status: 200, body: PAGE },
      'PUT /configuracion-empresa/proveedor': {
        status: 200,
        body: { redirectUri: PAGE.inicioDeSesion.direcciones.redirectUri },
      },
    });
    openAt(`/configurar-empresa#${SECRET}`);
    await screen.findByRole('heading', { level: 1, name: /Textil Vicuña/ });
    await user.type(screen.getByLabelText('Emisor (issuer)'), 'https://login.microsoftonline.com/abc/v2.0');
    await user.type(screen.getByLabelText('ID de cliente'), 'cliente-1');
    await user.type(screen.getByLabelText('Secreto de cliente'), 'secreto-1');
    // The company's only verified domain is ticked already; the one still waiting for its record is not offered.
    expect(screen.getByRole('checkbox', { name: 'vicuna.com.pe' })).toBeChecked();
    expect(screen.queryByRole('checkbox', { name: 'vicuna.pe' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Acceso de la empresa guardado.')).toBeInTheDocument();
    const put = api.requests.find((request) => request.method === 'PUT');
    expect(put?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(JSON.parse(put?.body ?? '{}')).toEqual({
      issuer: 'https://login.microsoftonline.com/abc/v2.0',
      clientId: 'cliente-1',
      clientSecret: 'secreto-1',
      dominios: ['vicuna.com.pe'],
      permitirContrasena: true,
    });
  });

  it('shows a directory token once, with Copiar and the warning', async () => {
    const user = userEvent.setup();
    api = await useFakeApi({
      'GET /configuracion-empresa': { status: 200, body: PAGE },
      'POST /configuracion-empresa/scim/tokens': {
        status: 201,
        body: {
          id: 5,
          token: `scim_${'B'.repeat(43)}`,
          prefijo: 'scim_BBBBBBB',
          descripcion: 'Enlace de configuración n.º 3',
          creado: '2027-02-01T10:00:00.000Z',
          urlBase: PAGE.directorio.urlBase,
        },
      },
    });
    openAt(`/configurar-empresa#${SECRET}`);
    await screen.findByRole('heading', { level: 1, name: /Textil Vicuña/ });
    await user.click(screen.getByRole('button', { name: 'Crear token' }));
    expect(await screen.findByText(`scim_${'B'.repeat(43)}`)).toBeInTheDocument();
    expect(screen.getByText(/no se volverá a mostrar/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copiar token del directorio' })).toBeInTheDocument();
  });

  it("reads a test's result with the link and says what came back and what is wrong", async () => {
    api = await returnFromTest({
      ok: false,
      protocolo: 'oidc',
      email: 'ana@gmail.com',
      nombre: 'Ana',
      apellido: 'Quispe',
      problemas: ['El dominio gmail.com no está entre los de la empresa en el portal (vicuna.com.pe)'],
    });
    openAt('/configurar-empresa?prueba=v1.sellado');
    const test = await screen.findByRole('region', { name: 'Probar conexión' });
    expect(await within(test).findByText('ana@gmail.com')).toBeInTheDocument();
    expect(within(test).getByText('Ana Quispe')).toBeInTheDocument();
    expect(within(test).getByText(/El dominio gmail\.com no está/)).toBeInTheDocument();
    expect(within(test).getByText(/no podría entrar/)).toHaveFocus();
    expect(window.location.search).toBe('');
    const read = api.requests.find((request) => request.path === '/configuracion-empresa/prueba/resultado');
    expect(read?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(JSON.parse(read?.body ?? '{}')).toEqual({ resultado: 'v1.sellado' });
  });

  it("a test that worked takes the focus to its result, as a failure's does", async () => {
    api = await returnFromTest({
      ok: true,
      protocolo: 'oidc',
      email: 'ana@vicuna.com.pe',
      nombre: 'Ana',
      apellido: 'Quispe',
      problemas: [],
    });
    openAt('/configurar-empresa?prueba=v1.sellado');
    const test = await screen.findByRole('region', { name: 'Probar conexión' });
    const worked = await within(test).findByText(/La conexión funciona/);
    expect(worked).toHaveFocus();
    expect(within(test).getByText('ana@vicuna.com.pe')).toBeInTheDocument();
  });
});

describe('a link that opens nothing', () => {
  it('revoked: a Spanish page naming who to ask, and no step', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const message =
      'El enlace de configuración ya no sirve: fue revocado o quien lo creó ya no es propietario de la empresa. Pide uno nuevo a Rosa (rosa@vicuna.pe), propietario de la empresa';
    api = await useFakeApi({
      'GET /configuracion-empresa': { status: 410, body: { statusCode: 410, code: 'ENLACE_REVOCADO', message } },
    });
    openAt(`/configurar-empresa#${SECRET}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'El enlace de configuración ya no sirve' }),
    ).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(steps()).toEqual([]);
  });

  it('expired: says so', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    api = await useFakeApi({
      'GET /configuracion-empresa': {
        status: 410,
        body: {
          statusCode: 410,
          code: 'ENLACE_VENCIDO',
          message: 'El enlace de configuración venció. Pide uno nuevo a Rosa',
        },
      },
    });
    openAt(`/configurar-empresa#${SECRET}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'El enlace de configuración venció' }),
    ).toBeInTheDocument();
    expect(steps()).toEqual([]);
  });

  it('without its code, or unknown to the API: not valid, asks nothing or forgets it', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    api = await useFakeApi({
      'GET /configuracion-empresa': {
        status: 401,
        body: {
          statusCode: 401,
          code: 'ENLACE_NO_VALIDO',
          message: 'El enlace de configuración no es válido. Pide uno nuevo al propietario de la empresa',
        },
      },
    });
    const first = openAt('/configurar-empresa');
    expect(await screen.findByRole('heading', { level: 1, name: 'Este enlace no sirve' })).toBeInTheDocument();
    expect(api.requests).toEqual([]);
    first.unmount();
    openAt(`/configurar-empresa#${SECRET}`);
    expect(await screen.findByText(/no es válido/)).toBeInTheDocument();
    expect(sessionStorage.getItem('portal.configurar-empresa')).toBeNull();
    expect(steps()).toEqual([]);
  });
});
