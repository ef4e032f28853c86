// 'Registro de actividad' → 'Enviar a mi SIEM': the company's destinations with what each got (delivered until, lag,
// last error in Spanish), pause, 'Enviar prueba' with the receiver's answer, delete after a confirmation, and adding
// one; the dialog takes the focus and Escape closes it, giving the focus back to the button.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { whenApiIdle } from '@portal/shared';
import { firstThen } from '@portal/shared/testing/fake-api';
import CompanyPage from './CompanyPage';
import { adminUser, bodiesTo, type FakeApi, renderAt, useFakeApi } from '../../testing/setup';
import { auditStream, company } from '../../testing/companies';
import type { AuditStream } from '../../api/company-types';

jest.setTimeout(30_000);

let api: FakeApi;
afterEach(async () => {
  await whenApiIdle();
  window.history.replaceState(null, '', '/');
  await api?.close();
});

const ID = '5b2c9f0e-1d7a-4c35-9a8e-0f6f3c2d1b7a';
const STREAMS: AuditStream[] = [
  {
    id: ID,
    tipo: 'syslog',
    host: 'siem.andina.pe',
    puerto: 6514,
    ca: null,
    certificado: null,
    tieneClave: false,
    estado: 'activo',
    entregadoHasta: '2027-02-01T10:00:00.000Z',
    entregadoEn: '2027-02-01T10:00:01.000Z',
    retraso: { entradas: 3, segundos: 42 },
    ultimoError: 'El receptor rechazó la conexión (¿está en marcha y escucha en ese puerto?)',
    proximoIntento: '2027-02-01T10:01:00.000Z',
    creadoEn: '2027-01-30T10:00:00.000Z',
  },
];

const HEC = auditStream();

const owner = () =>
  adminUser({
    role: 2,
    email: 'jefa@minera.pe',
    ...({ empresas: [{ id: 4, nombre: 'Minera Andina S.A.', rol: 'propietario', estado: 'activo' }] } as object),
  });

const pageRoutes = {
  'GET /empresas/4': { status: 200, body: company({ miRol: 'propietario' }) },
  'GET /empresas/4/licencias': { status: 200, body: [] },
  'GET /empresas/4/miembros': { status: 200, body: { data: [], total: 0, siguiente: null } },
  'GET /empresas/4/auditoria': {
    status: 200,
    body: { data: [], total: 0, totalPages: 0, currentPage: 1, hasNextPage: false, count: 0 },
  },
};

/** The company page's activity log with the SIEM dialog open. */
async function openSiem(user: ReturnType<typeof userEvent.setup>) {
  renderAt('/admin/empresas/4', <CompanyPage />, { pattern: '/admin/empresas/:id' });
  await user.click(await screen.findByRole('tab', { name: 'Registro de actividad' }));
  await user.click(await screen.findByRole('button', { name: 'Enviar a mi SIEM' }));
  const dialog = await screen.findByRole('dialog', { name: 'Enviar a mi SIEM' });
  const table = await within(dialog).findByRole('table', { name: 'Destinos del registro de actividad' });
  return { dialog, table };
}

describe("'Enviar a mi SIEM': what went wrong, kept current, and 'Editar'", () => {
  it("says a failed 'Enviar prueba' as an error, not as a success", async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      {
        ...pageRoutes,
        'GET /empresas/4/flujos-auditoria': { status: 200, body: { data: [HEC] } },
        [`POST /empresas/4/flujos-auditoria/${HEC.id}/prueba`]: {
          status: 200,
          body: {
            entregado: false,
            mensaje:
              'El evento de prueba no se entregó: el certificado del receptor no lo firma la autoridad que diste',
          },
        },
      },
      owner(),
    );
    const { dialog, table } = await openSiem(user);
    await user.click(within(table).getByRole('button', { name: 'Enviar prueba' }));
    const said = await within(dialog).findByRole('alert');
    expect(said).toHaveTextContent(
      'El evento de prueba no se entregó: el certificado del receptor no lo firma la autoridad que diste',
    );
    expect(within(dialog).queryByRole('status')).not.toBeInTheDocument();
  });

  it('reads the destinations again while the dialog is open: a new error shows without reopening it', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'clearTimeout', 'queueMicrotask'] });
    try {
      const user = userEvent.setup();
      api = await useFakeApi(
        {
          ...pageRoutes,
          'GET /empresas/4/flujos-auditoria': firstThen(
            { status: 200, body: { data: [HEC] } },
            {
              status: 200,
              body: {
                data: [
                  { ...HEC, ultimoError: 'El receptor no respondió a tiempo', retraso: { entradas: 4, segundos: 9 } },
                ],
              },
            },
          ),
        },
        owner(),
      );
      const { table } = await openSiem(user);
      expect(within(table).getByText('Ninguno')).toBeInTheDocument();
      await act(async () => {
        jest.advanceTimersByTime(5_000);
      });
      expect(await within(table).findByText('El receptor no respondió a tiempo')).toBeInTheDocument();
      expect(within(table).getByText('4 entradas (9 s)')).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });

  it("'Editar' shows where it sends (never the secret), asks the secret again for a new URL and sends only what changed", async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      {
        ...pageRoutes,
        'GET /empresas/4/flujos-auditoria': { status: 200, body: { data: [HEC] } },
        [`PATCH /empresas/4/flujos-auditoria/${HEC.id}`]: (request) => ({
          status: 200,
          body: { ...HEC, ...JSON.parse(request.body) },
        }),
      },
      owner(),
    );
    const { dialog, table } = await openSiem(user);
    await user.click(within(table).getByRole('button', { name: 'Editar' }));
    const form = within(dialog).getByRole('form', { name: 'Editar destino' });
    expect(within(form).getByLabelText('URL del colector')).toHaveValue(HEC.url);
    expect(within(form).getByLabelText('Cabecera de autenticación (opcional)')).toHaveValue('Authorization');
    expect(within(form).getByLabelText('Secreto')).toHaveValue('');
    expect(within(form).getByLabelText('Tipo')).toBeDisabled();

    expect(within(form).getByLabelText('Secreto')).toHaveAccessibleDescription(
      'Guardado: no se muestra. Déjalo vacío para conservarlo; si cambias la URL, escríbelo de nuevo.',
    );
    const url = within(form).getByLabelText('URL del colector');
    await user.clear(url);
    const again =
      'Cambiaste la dirección: escribe de nuevo el secreto (no se envía a otra dirección sin que lo confirmes).';
    await user.type(url, 'https://sentinel.andina.pe/api/logs');
    expect(within(form).getByLabelText('Secreto')).toHaveAccessibleDescription(again);
    await user.click(within(form).getByRole('button', { name: 'Guardar cambios' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(again);
    expect(bodiesTo(api, `/empresas/4/flujos-auditoria/${HEC.id}`)).toEqual([]);
    await user.type(within(form).getByLabelText('Secreto'), 'token-sentinel');
    await user.click(within(form).getByRole('button', { name: 'Guardar cambios' }));
    expect(await within(dialog).findByText('Destino guardado.')).toBeInTheDocument();
    expect(bodiesTo(api, `/empresas/4/flujos-auditoria/${HEC.id}`)).toEqual([
      { url: 'https://sentinel.andina.pe/api/logs', secreto: 'token-sentinel' },
    ]);
    // Back to adding one: the form is empty again.
    expect(within(dialog).getByRole('form', { name: 'Añadir destino' })).toBeInTheDocument();
  });

  it("shows the API's refusal in Spanish when it asks for the secret the list did not know of", async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      {
        ...pageRoutes,
        // The list was read before someone set a secret: the form does not know it must ask.
        'GET /empresas/4/flujos-auditoria': { status: 200, body: { data: [{ ...HEC, tieneSecreto: false }] } },
        [`PATCH /empresas/4/flujos-auditoria/${HEC.id}`]: {
          status: 400,
          body: {
            statusCode: 400,
            code: 'SECRETO_REQUERIDO',
            message: 'Cambiaste la dirección del destino: escribe de nuevo su secreto para enviarlo allí',
          },
        },
      },
      owner(),
    );
    const { dialog, table } = await openSiem(user);
    await user.click(within(table).getByRole('button', { name: 'Editar' }));
    const form = within(dialog).getByRole('form', { name: 'Editar destino' });
    const url = within(form).getByLabelText('URL del colector');
    await user.clear(url);
    await user.type(url, 'https://sentinel.andina.pe/api/logs');
    await user.click(within(form).getByRole('button', { name: 'Guardar cambios' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Cambiaste la dirección del destino: escribe de nuevo su secreto para enviarlo allí',
    );
    expect(within(dialog).getByRole('form', { name: 'Editar destino' })).toBeInTheDocument();
  });
});

describe("'Enviar a mi SIEM' in a company's activity log", () => {
  it('lists, pauses, tests, deletes and adds destinations in a dialog that Escape closes', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      {
        ...pageRoutes,
        'GET /empresas/4/flujos-auditoria': { status: 200, body: { data: STREAMS } },
        'POST /empresas/4/flujos-auditoria': { status: 201, body: STREAMS[0] },
        [`PATCH /empresas/4/flujos-auditoria/${ID}`]: { status: 200, body: { ...STREAMS[0], estado: 'pausado' } },
        [`DELETE /empresas/4/flujos-auditoria/${ID}`]: { status: 204, body: null },
        [`POST /empresas/4/flujos-auditoria/${ID}/prueba`]: {
          status: 200,
          body: { entregado: true, mensaje: 'El receptor aceptó el evento de prueba (1 mensaje por syslog TLS)' },
        },
      },
      owner(),
    );
    renderAt('/admin/empresas/4', <CompanyPage />, { pattern: '/admin/empresas/:id' });
    await user.click(await screen.findByRole('tab', { name: 'Registro de actividad' }));
    const open = await screen.findByRole('button', { name: 'Enviar a mi SIEM' });
    await user.click(open);

    const dialog = await screen.findByRole('dialog', { name: 'Enviar a mi SIEM' });
    expect(dialog.contains(document.activeElement)).toBe(true);
    const table = await within(dialog).findByRole('table', { name: 'Destinos del registro de actividad' });
    const cells = within(within(table).getAllByRole('row')[1] as HTMLElement)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 5)).toEqual([
      'syslog TLS · siem.andina.pe:6514',
      'Activo',
      new Date('2027-02-01T10:00:00.000Z').toLocaleString('es-ES'),
      '3 entradas (42 s)',
      'El receptor rechazó la conexión (¿está en marcha y escucha en ese puerto?)',
    ]);

    await user.click(within(table).getByRole('button', { name: 'Pausar' }));
    await waitFor(() => expect(bodiesTo(api, `/empresas/4/flujos-auditoria/${ID}`)).toEqual([{ estado: 'pausado' }]));

    await user.click(within(table).getByRole('button', { name: 'Enviar prueba' }));
    expect(
      await within(dialog).findByText('El receptor aceptó el evento de prueba (1 mensaje por syslog TLS)'),
    ).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Borrar' }));
    expect(api.requests.some((request) => request.method === 'DELETE')).toBe(false);
    await user.click(within(table).getByRole('button', { name: 'Confirmar: borrar' }));
    await waitFor(() => expect(api.requests.some((request) => request.method === 'DELETE')).toBe(true));

    const form = within(dialog).getByRole('form', { name: 'Añadir destino' });
    await waitFor(() => expect(within(form).getByRole('button', { name: 'Añadir destino' })).toBeEnabled());
    await user.selectOptions(within(form).getByLabelText('Tipo'), 'https');
    await user.type(
      within(form).getByLabelText('URL del colector'),
      'https://splunk.andina.pe:8088/services/collector/event',
    );
    await user.type(within(form).getByLabelText('Cabecera de autenticación (opcional)'), 'Authorization');
    await user.type(within(form).getByLabelText('Secreto'), 'hec-token');
    await user.click(within(form).getByRole('button', { name: 'Añadir destino' }));
    expect(await within(dialog).findByText(/Destino añadido/)).toBeInTheDocument();
    const created = api.requests.filter(
      (request) => request.method === 'POST' && request.path === '/empresas/4/flujos-auditoria',
    );
    expect(created.map((request) => JSON.parse(request.body))).toEqual([
      {
        tipo: 'https',
        url: 'https://splunk.andina.pe:8088/services/collector/event',
        formato: 'splunk-hec',
        cabecera: 'Authorization',
        secreto: 'hec-token',
      },
    ]);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Enviar a mi SIEM' })).toBeNull());
    expect(document.activeElement).toBe(open);
  });
});
