// 'Registro de actividad' → 'Enviar a mi SIEM': the company's destinations with what each got (delivered until, lag,
// last error in Spanish), pause, 'Enviar prueba' with the receiver's answer, delete after a confirmation, and adding
// one; the dialog takes the focus and Escape closes it, giving the focus back to the button.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { whenApiIdle } from '@portal/shared';
import CompanyPage from './CompanyPage';
import { adminUser, bodiesTo, type FakeApi, renderAt, useFakeApi } from '../../testing/setup';
import { company } from '../../testing/companies';
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

describe("'Enviar a mi SIEM' in a company's activity log", () => {
  it('lists, pauses, tests, deletes and adds destinations in a dialog that Escape closes', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      {
        'GET /empresas/4': { status: 200, body: company({ miRol: 'propietario' }) },
        'GET /empresas/4/licencias': { status: 200, body: [] },
        'GET /empresas/4/miembros': { status: 200, body: { data: [], total: 0, siguiente: null } },
        'GET /empresas/4/auditoria': {
          status: 200,
          body: { data: [], total: 0, totalPages: 0, currentPage: 1, hasNextPage: false, count: 0 },
        },
        'GET /empresas/4/flujos-auditoria': { status: 200, body: { data: STREAMS } },
        'POST /empresas/4/flujos-auditoria': { status: 201, body: STREAMS[0] },
        [`PATCH /empresas/4/flujos-auditoria/${ID}`]: { status: 200, body: { ...STREAMS[0], estado: 'pausado' } },
        [`DELETE /empresas/4/flujos-auditoria/${ID}`]: { status: 204, body: null },
        [`POST /empresas/4/flujos-auditoria/${ID}/prueba`]: {
          status: 200,
          body: { entregado: true, mensaje: 'El receptor aceptó el evento de prueba (1 mensaje por syslog TLS)' },
        },
      },
      adminUser({
        role: 2,
        email: 'jefa@minera.pe',
        ...({ empresas: [{ id: 4, nombre: 'Minera Andina S.A.', rol: 'propietario', estado: 'activo' }] } as object),
      }),
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
