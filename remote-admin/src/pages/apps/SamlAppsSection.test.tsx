// 'Aplicaciones SAML' of the apps page, as a platform administrator uses it: the portal's metadata address to give to
// partners, each registered app (entity ID, ACS addresses, portal app, NameID, logout) with a notice while logouts to
// it fail and are retried, and creating, editing and deleting one: the bodies the API receives, its Spanish refusal
// said in the dialog, and the keyboard kept in each dialog and given back to the button that opened it.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SamlApp } from '@portal/shared';
import { firstThen } from '@portal/shared/testing/fake-api';
import { app } from '@portal/shared/testing/fixtures';
import { bodiesTo, page, renderAt, useFakeApi, type FakeApi } from '../../testing/setup';
import { SamlAppsSection } from './SamlAppsSection';

let api: FakeApi;
let samlApps: SamlApp[];

/** A partner app's SP metadata, as mod_auth_mellon writes it (shortened). */
const MELLON_METADATA = `<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://historian.example.com/mellon/metadata">
  <SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://historian.example.com/mellon/postResponse" index="0"/>
  </SPSSODescriptor>
</EntityDescriptor>`;

function samlApp(id: number, nombre: string, overrides: Partial<SamlApp> = {}): SamlApp {
  return {
    id,
    nombre,
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
    'GET /admin/aplicaciones-saml': () => ({ status: 200, body: { data: samlApps } }),
    ...routes,
  });
  renderAt('/admin/apps', <SamlAppsSection />);
}

const rows = () => screen.findAllByTestId('aplicacion-saml');
const sent = (method: string, path: string) =>
  api.requests.filter((r) => r.method === method && r.path === path).map((r) => JSON.parse(r.body || 'null'));

beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
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

describe('the list', () => {
  it("shows the portal's metadata address to copy, and each app with what it was registered with", async () => {
    const user = userEvent.setup();
    await start();
    expect(screen.getByRole('heading', { name: 'Aplicaciones SAML' })).toBeInTheDocument();
    const address = `${api.url}/saml/idp/metadata`;
    expect(screen.getByText(address)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copiar metadatos del portal' }));
    await expect(navigator.clipboard.readText()).resolves.toBe(address);
    expect(await screen.findByText('Copiado')).toHaveAttribute('role', 'status');

    const [historian, maintenance] = await rows();
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
    const [quality] = await rows();
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
    const [maintenance, quality, purchases] = await rows();
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
    await start({
      'GET /admin/aplicaciones-saml': firstThen(
        { status: 503, body: { statusCode: 503, message: 'El servicio no está disponible. Inténtalo más tarde.' } },
        { status: 200, body: { data: [] } },
      ),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('El servicio no está disponible. Inténtalo más tarde.');
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('No hay aplicaciones SAML registradas.')).toBeInTheDocument();
  });
});

describe('a new SAML app', () => {
  it('asks for a name and the metadata first, then sends the name, the metadata and the portal app', async () => {
    const user = userEvent.setup();
    await start({
      'POST /admin/aplicaciones-saml': (request) => {
        const body = JSON.parse(request.body) as { nombre: string };
        samlApps = [...samlApps, samlApp(9, body.nombre)];
        return { status: 201, body: { id: 9, entityId: 'https://historian.example.com/mellon/metadata' } };
      },
    });
    await rows();
    const opener = screen.getByRole('button', { name: 'Nueva aplicación SAML' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Nueva aplicación SAML' });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('El nombre es requerido');
    await user.type(within(dialog).getByLabelText('Nombre'), 'Historiador Norte');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Pega o carga los metadatos de la aplicación (XML)');
    expect(sent('POST', '/admin/aplicaciones-saml')).toEqual([]);

    await user.upload(
      within(dialog).getByLabelText('Cargar archivo XML'),
      new File([MELLON_METADATA], 'historian.xml', { type: 'text/xml' }),
    );
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Metadatos de la aplicación (XML)')).toHaveValue(MELLON_METADATA),
    );
    expect(within(dialog).getByLabelText('Aplicación del portal')).toHaveValue('0');
    await user.selectOptions(within(dialog).getByLabelText('Aplicación del portal'), 'TX30');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Aplicación SAML creada')).toBeInTheDocument();
    expect(sent('POST', '/admin/aplicaciones-saml')).toEqual([
      { nombre: 'Historiador Norte', metadata: MELLON_METADATA, appId: 3 },
    ]);
    await waitFor(async () => expect(await rows()).toHaveLength(3));
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
    await rows();
    await user.click(screen.getByRole('button', { name: 'Nueva aplicación SAML' }));
    const dialog = screen.getByRole('dialog', { name: 'Nueva aplicación SAML' });
    await user.type(within(dialog).getByLabelText('Nombre'), '  Historiador  ');
    await user.click(within(dialog).getByLabelText('Metadatos de la aplicación (XML)'));
    await user.paste(MELLON_METADATA);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    expect(sent('POST', '/admin/aplicaciones-saml')).toEqual([{ nombre: 'Historiador', metadata: MELLON_METADATA }]);
    expect(within(dialog).getByLabelText('Nombre')).toHaveValue('  Historiador  ');
  });

  it('Escape closes the dialog without sending, and the keyboard is back on its button', async () => {
    const user = userEvent.setup();
    await start();
    await rows();
    const opener = screen.getByRole('button', { name: 'Nueva aplicación SAML' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Nueva aplicación SAML' });
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

describe('an existing SAML app', () => {
  it('edits it: the name and app as saved, the metadata kept when left empty, the app taken away', async () => {
    const user = userEvent.setup();
    await start({
      'PUT /admin/aplicaciones-saml/1': (request) => {
        const body = JSON.parse(request.body) as { nombre: string };
        samlApps = samlApps.map((one) => (one.id === 1 ? { ...one, nombre: body.nombre, appId: null } : one));
        return { status: 200, body: samlApps[0] };
      },
    });
    await rows();
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
    expect(sent('PUT', '/admin/aplicaciones-saml/1')).toEqual([{ nombre: 'Historiador Sur' }]);
    expect(await screen.findByRole('heading', { name: 'Historiador Sur' })).toBeInTheDocument();
  });

  it('new metadata pasted on an edit is sent', async () => {
    const user = userEvent.setup();
    await start({ 'PUT /admin/aplicaciones-saml/2': { status: 200, body: samlApp(2, 'Mantenimiento') } });
    await rows();
    await user.click(screen.getByRole('button', { name: 'Editar aplicación SAML Mantenimiento' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar aplicación SAML Mantenimiento' });
    await user.click(within(dialog).getByLabelText('Metadatos de la aplicación (XML)'));
    await user.paste(MELLON_METADATA);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Aplicación SAML actualizada')).toBeInTheDocument();
    expect(bodiesTo(api, '/admin/aplicaciones-saml/2')).toEqual([
      { nombre: 'Mantenimiento', metadata: MELLON_METADATA },
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
    await rows();
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
    expect(await rows()).toHaveLength(1);
  });

  it("says the API's refusal to delete in the question", async () => {
    const user = userEvent.setup();
    const refusal = 'No se pudo eliminar la aplicación SAML: inténtalo de nuevo.';
    await start({
      'DELETE /admin/aplicaciones-saml/1': { status: 500, body: { statusCode: 500, message: refusal } },
    });
    await rows();
    await user.click(screen.getByRole('button', { name: 'Eliminar aplicación SAML Historiador de Planta' }));
    const question = screen.getByRole('dialog', { name: '¿Eliminar la aplicación SAML Historiador de Planta?' });
    await user.click(within(question).getByRole('button', { name: 'Eliminar' }));
    expect(await within(question).findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.getAllByTestId('aplicacion-saml')).toHaveLength(2);
  });
});
