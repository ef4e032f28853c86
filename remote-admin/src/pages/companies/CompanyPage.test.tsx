import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import CompanyPage from './CompanyPage';
import { adminUser, bodiesTo, type FakeApi, queriesTo, renderAt, useFakeApi } from '../../testing/setup';
import { company } from '../../testing/companies';
import type { Licence, Member } from '../../api/company-types';

// Long flows on a shared machine: a dialog each step.
jest.setTimeout(30_000);

let api: FakeApi;
afterEach(() => {
  // The section shown is kept in the address's '#': each test starts on the first one.
  window.history.replaceState(null, '', '/');
  return api?.close();
});

const licence = (over: Partial<Licence> = {}): Licence => ({
  id: 1,
  app: { id: 2, nombre: 'Control Max 360' },
  plan: { id: 5, nombre: 'Pro' },
  puestos: 3,
  enUso: 2,
  libres: 1,
  excedidos: 0,
  fechaVencimiento: '2099-12-31T23:59:59.000Z',
  vencida: false,
  ...over,
});

const member = (id: number, over: Partial<Member> = {}): Member => ({
  idUsuario: id,
  email: `persona${id}@minera.pe`,
  nombre: 'Persona',
  apellido: String(id),
  rol: 'miembro',
  estado: 'activo',
  segundoFactor: false,
  puestos: [],
  desde: '2027-01-06T10:00:00.000Z',
  ...over,
});

const owner = () =>
  adminUser({
    role: 2,
    email: 'jefa@minera.pe',
    ...({ empresas: [{ id: 4, nombre: 'Minera Andina S.A.', rol: 'administrador', estado: 'activo' }] } as object),
  });

const base = (over: Record<string, unknown> = {}) => ({
  'GET /empresas/4': { status: 200, body: company() },
  'GET /empresas/4/licencias': { status: 200, body: [licence()] },
  'GET /empresas/4/miembros': { status: 200, body: { data: [member(10)], total: 1, siguiente: null } },
  ...over,
});

const show = (path: string) => renderAt(path, <CompanyPage />, { pattern: '/admin/empresas/:id' });

describe("A company's page", () => {
  it('pages members by cursor and filters them by email', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4': { status: 200, body: company({ miembros: 2, pendientes: 1 }) },
        'GET /empresas/4/miembros': (request: { path: string }) => {
          const query = new URLSearchParams(request.path.split('?')[1]);
          if (query.get('cursor') === 'c2')
            return { status: 200, body: { data: [member(12)], total: 3, siguiente: null } };
          return { status: 200, body: { data: [member(10), member(11)], total: 3, siguiente: 'c2' } };
        },
      }),
    );
    show('/admin/empresas/4');
    expect(await screen.findByRole('heading', { name: /Minera Andina S\.A\./ })).toBeInTheDocument();
    expect(await screen.findByText('2 de 3 miembros')).toBeInTheDocument();
    // The page's count and the list's total name the same people (one of them waiting for approval).
    expect(screen.getByText('2 miembros activos · 1 pendiente de aprobación')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cargar más' }));
    expect(await screen.findByText('persona12@minera.pe')).toBeInTheDocument();
    expect(screen.getByText('3 de 3 miembros')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cargar más' })).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Filtrar por email'), 'ana@');
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    await waitFor(() =>
      expect(queriesTo(api, '/empresas/4/miembros')).toEqual([
        { limit: '50' },
        { limit: '50', cursor: 'c2' },
        { limit: '50', email: 'ana@' },
      ]),
    );
  });

  it("assigns a seat; a full licence's 409 SIN_PUESTOS shows the API's text in the dialog", async () => {
    const user = userEvent.setup();
    let calls = 0;
    api = await useFakeApi(
      base({
        'POST /empresas/4/puestos': () =>
          ++calls === 1
            ? { status: 201, body: { idUsuario: 10, idApp: 2, asignadoEn: '2027-01-07T00:00:00.000Z' } }
            : {
                status: 409,
                body: {
                  statusCode: 409,
                  code: 'SIN_PUESTOS',
                  message: 'No quedan puestos libres de Control Max 360 en la licencia de la empresa',
                },
              },
        'DELETE /empresas/4/puestos/10/2': { status: 204 },
      }),
    );
    show('/admin/empresas/4');
    await user.click(await screen.findByRole('button', { name: 'Puestos de persona10@minera.pe' }));
    const dialog = screen.getByRole('dialog', { name: 'Puestos de Persona 10' });
    await user.click(within(dialog).getByRole('button', { name: 'Asignar puesto de Control Max 360' }));
    expect(await within(dialog).findByText('Puesto de Control Max 360 asignado')).toBeInTheDocument();
    // The same button, now 'Quitar puesto', keeps the focus: the dialog is still open.
    expect(within(dialog).getByRole('button', { name: 'Quitar puesto de Control Max 360' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Quitar puesto de Control Max 360' }));
    expect(await within(dialog).findByText('Puesto de Control Max 360 quitado')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Asignar puesto de Control Max 360' }));
    expect(
      await within(dialog).findByText('No quedan puestos libres de Control Max 360 en la licencia de la empresa'),
    ).toBeInTheDocument();
    expect(bodiesTo(api, '/empresas/4/puestos')).toEqual([
      { idUsuario: 10, idApp: 2 },
      { idUsuario: 10, idApp: 2 },
    ]);
    expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/empresas/4/puestos/10/2']);
    // Each change asks for the licences' counts again.
    await waitFor(() => expect(queriesTo(api, '/empresas/4/licencias')).toHaveLength(3));
  });

  it("at '0 libres' greys out 'Asignar', says why and how to get more seats; sends nothing", async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4': { status: 200, body: company({ miRol: 'administrador' }) },
        'GET /empresas/4/licencias': { status: 200, body: [licence({ enUso: 3, libres: 0 })] },
      }),
      owner(),
    );
    show('/admin/empresas/4');
    await user.click(await screen.findByRole('button', { name: 'Puestos de persona10@minera.pe' }));
    const dialog = screen.getByRole('dialog', { name: 'Puestos de Persona 10' });
    const assign = within(dialog).getByRole('button', { name: 'Asignar puesto de Control Max 360' });
    expect(assign).toBeDisabled();
    expect(assign).toHaveAccessibleDescription(
      'No quedan puestos libres de Control Max 360: quita el suyo a otra persona o pide más.',
    );
    expect(within(dialog).getByRole('link', { name: 'soporte@example.com' })).toHaveAttribute(
      'href',
      `mailto:soporte@example.com?subject=${encodeURIComponent('Más puestos para Minera Andina S.A.')}`,
    );
    await user.click(assign);
    expect(bodiesTo(api, '/empresas/4/puestos')).toEqual([]);
    // 'Licencias' tells a company's administrator what they can do, not what only the vendor can.
    await user.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    await user.click(screen.getByRole('tab', { name: 'Licencias' }));
    expect(await screen.findByText(/^Al vencer, los puestos dejan de dar el plan/)).toHaveTextContent(
      /^Al vencer, los puestos dejan de dar el plan y no se asignan otros\.$/,
    );
    expect(screen.queryByText(/Si bajas los puestos/)).not.toBeInTheDocument();
  });

  it("changes a role; the last owner's refusal is said in Spanish; a removal is asked first", async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4/miembros': {
          status: 200,
          body: { data: [member(10), member(11, { rol: 'propietario' })], total: 2, siguiente: null },
        },
        'PATCH /empresas/4/miembros/10': { status: 200, body: member(10, { rol: 'administrador' }) },
        'PATCH /empresas/4/miembros/11': {
          status: 409,
          body: { statusCode: 409, code: 'ULTIMO_PROPIETARIO', message: 'La empresa debe conservar un propietario' },
        },
        'DELETE /empresas/4/miembros/10': { status: 204 },
      }),
    );
    show('/admin/empresas/4');
    await user.selectOptions(await screen.findByLabelText('Rol de persona10@minera.pe'), 'administrador');
    expect(await screen.findByText('persona10@minera.pe ahora es Administrador')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Rol de persona11@minera.pe'), 'miembro');
    expect(await screen.findByText('La empresa debe conservar un propietario')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Quitar a persona10@minera.pe' }));
    const confirm = screen.getByRole('dialog', { name: '¿Quitar a persona10@minera.pe de la empresa?' });
    await user.click(within(confirm).getByRole('button', { name: 'Quitar' }));
    await waitFor(() => expect(screen.queryByText('persona10@minera.pe')).not.toBeInTheDocument());
    expect(bodiesTo(api, '/empresas/4/miembros/10')).toEqual([{ rol: 'administrador' }, null]);
  });

  it('approves a member waiting for approval', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4/miembros': {
          status: 200,
          body: { data: [member(10, { estado: 'pendiente' })], total: 1, siguiente: null },
        },
        'POST /empresas/4/miembros/10/aprobar': { status: 200, body: member(10) },
      }),
    );
    show('/admin/empresas/4');
    expect(await screen.findByText('Pendiente de aprobación')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Aprobar a persona10@minera.pe' }));
    expect(await screen.findByText('persona10@minera.pe ya es miembro')).toBeInTheDocument();
    expect(screen.getByText('Activo')).toBeInTheDocument();
    // 'Aprobar' is gone with the change: the keyboard is at the outcome, not back at the top of the page.
    await waitFor(() => expect(screen.getByText('persona10@minera.pe ya es miembro')).toHaveFocus());
  });

  it("keeps the head's counts true after an approval and a removal, without a reload: '1 miembro activo', '2 miembros activos'", async () => {
    const user = userEvent.setup();
    // The API's side: one active member, one waiting for approval.
    const people = new Map([
      [10, member(10)],
      [11, member(11, { estado: 'pendiente' })],
    ]);
    const counted = () => {
      const all = [...people.values()];
      return company({
        miembros: all.filter((m) => m.estado === 'activo').length,
        pendientes: all.filter((m) => m.estado === 'pendiente').length,
      });
    };
    api = await useFakeApi(
      base({
        'GET /empresas/4': () => ({ status: 200, body: counted() }),
        'GET /empresas/4/miembros': () => ({
          status: 200,
          body: { data: [...people.values()], total: people.size, siguiente: null },
        }),
        'POST /empresas/4/miembros/11/aprobar': () => {
          people.set(11, member(11));
          return { status: 200, body: people.get(11) };
        },
        'DELETE /empresas/4/miembros/10': () => {
          people.delete(10);
          return { status: 204 };
        },
      }),
    );
    show('/admin/empresas/4');
    expect(await screen.findByText('1 miembro activo · 1 pendiente de aprobación')).toBeInTheDocument();
    expect(await screen.findByText('2 de 2 miembros')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Aprobar a persona11@minera.pe' }));
    expect(await screen.findByText('persona11@minera.pe ya es miembro')).toBeInTheDocument();
    expect(await screen.findByText('2 miembros activos')).toBeInTheDocument();
    expect(screen.queryByText(/pendiente de aprobación/)).not.toBeInTheDocument();
    expect(screen.getByText('2 de 2 miembros')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Quitar a persona10@minera.pe' }));
    const confirm = screen.getByRole('dialog', { name: '¿Quitar a persona10@minera.pe de la empresa?' });
    await user.click(within(confirm).getByRole('button', { name: 'Quitar' }));
    expect(await screen.findByText('1 miembro activo')).toBeInTheDocument();
    expect(screen.getByText('1 de 1 miembro')).toBeInTheDocument();
    // The page never went back to loading: the head changed in place.
    expect(screen.getByRole('heading', { name: /Minera Andina S\.A\./ })).toBeInTheDocument();
  });

  it('a platform administrator sells a licence: app, plan of that app, seats and expiry', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4/licencias': { status: 200, body: [] },
        'GET /apps/listar-con-planes': {
          status: 200,
          body: [
            {
              id: 2,
              nombre: 'Control Max 360',
              iconUrl: null,
              descripcion: '',
              longDescription: '',
              planes: [
                { id: 4, nombre: 'Free', caracteristicas: [], precioMensual: 0, precioAnual: 0 },
                { id: 5, nombre: 'Pro', caracteristicas: [], precioMensual: 10, precioAnual: 100 },
              ],
            },
          ],
        },
        'POST /admin/empresas/4/licencias': { status: 201, body: licence() },
      }),
    );
    show('/admin/empresas/4');
    await user.click(await screen.findByRole('tab', { name: 'Licencias' }));
    expect(await screen.findByText('La empresa aún no tiene licencias.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Vender licencia' }));
    const dialog = screen.getByRole('dialog', { name: 'Vender licencia' });
    await within(dialog).findByRole('option', { name: 'Control Max 360' });
    await user.selectOptions(within(dialog).getByLabelText('App'), 'Control Max 360');
    await user.selectOptions(within(dialog).getByLabelText('Plan'), 'Pro');
    await user.type(within(dialog).getByLabelText('Puestos'), '3');
    await user.type(within(dialog).getByLabelText('Vencimiento'), '2027-12-31');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Licencia vendida')).toBeInTheDocument();
    expect(bodiesTo(api, '/admin/empresas/4/licencias')).toEqual([
      { idApp: 2, idPlan: 5, puestos: 3, fechaVencimiento: '2027-12-31T23:59:59.000Z' },
    ]);
  });

  it("shows a licence's counts and the API's warning; a company administrator is offered no platform action", async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4': { status: 200, body: company({ miRol: 'administrador' }) },
        'GET /empresas/4/licencias': {
          status: 200,
          body: [
            licence({
              puestos: 2,
              enUso: 3,
              libres: 0,
              excedidos: 1,
              aviso: 'Hay 1 puesto asignado de más: nadie lo pierde, pero no se asignan otros hasta quitarlo.',
            }),
          ],
        },
        'GET /empresas/4/dominios': {
          status: 200,
          body: [
            {
              dominio: 'minera.pe',
              verificado: false,
              verificadoPor: null,
              registroTxt: { nombre: '_portal-verificacion.minera.pe', valor: 'portal-verificacion=abc' },
            },
          ],
        },
        'POST /empresas/4/dominios/minera.pe/verificar': {
          status: 409,
          // The API's lookup takes seconds.
          delay: 300,
          body: {
            statusCode: 409,
            code: 'REGISTRO_TXT_NO_ENCONTRADO',
            message: 'No se encontró el registro TXT en el DNS',
          },
        },
      }),
      owner(),
    );
    show('/admin/empresas/4');
    expect(await screen.findByText(/Tu rol: Administrador/)).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Licencias' }));
    expect(await screen.findByText('Pro · 3 de 2 en uso · 0 libres · 1 asignado de más')).toBeInTheDocument();
    expect(screen.getByText(/Hay 1 puesto asignado de más/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Vender licencia' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Cambiar licencia/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Dominios' }));
    expect(await screen.findByText('_portal-verificacion.minera.pe')).toBeInTheDocument();
    expect(screen.getByText('portal-verificacion=abc')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Confirmar minera.pe' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Verificar minera.pe' }));
    // While the API looks the record up, the button says so and keeps the focus; a second press sends nothing.
    const verifying = screen.getByRole('button', { name: 'Verificando...' });
    expect(verifying).toHaveFocus();
    await user.click(verifying);
    expect(await screen.findByText('No se encontró el registro TXT en el DNS')).toBeInTheDocument();
    expect(api.requests.filter((r) => r.path.endsWith('/verificar'))).toHaveLength(1);

    // An administrator may not make anyone an owner: the API would refuse it.
    await user.click(screen.getByRole('tab', { name: 'Miembros' }));
    const roles = await screen.findByLabelText('Rol de persona10@minera.pe');
    expect(within(roles).queryByRole('option', { name: 'Propietario' })).not.toBeInTheDocument();
  });

  it("a company with nobody in it yet proposes inviting its owner, and the dialog's button says it sends", async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4': { status: 200, body: company({ miembros: 0 }) },
        'GET /empresas/4/miembros': { status: 200, body: { data: [], total: 0, siguiente: null } },
        'GET /empresas/4/invitaciones': { status: 200, body: [] },
      }),
    );
    show('/admin/empresas/4');
    await user.click(await screen.findByRole('tab', { name: 'Invitaciones' }));
    await user.click(await screen.findByRole('button', { name: 'Invitar' }));
    const dialog = screen.getByRole('dialog', { name: 'Invitar a la empresa' });
    expect(within(dialog).getByLabelText('Rol')).toHaveDisplayValue('Propietario');
    expect(within(dialog).getByRole('button', { name: 'Enviar invitación' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Guardar' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    // The empty lists say there is nobody yet and where to start, not that a search found nothing.
    await user.click(screen.getByRole('tab', { name: 'Miembros' }));
    expect(
      await screen.findByText('La empresa aún no tiene miembros: invita a tu equipo en «Invitaciones».'),
    ).toBeInTheDocument();
    await user.type(screen.getByLabelText('Filtrar por email'), 'ana@');
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    expect(await screen.findByText('No se encontraron miembros con ese email.')).toBeInTheDocument();
  });

  it("a platform administrator confirms a domain; the keyboard ends at the outcome, not at the page's top", async () => {
    const user = userEvent.setup();
    let verified = false;
    const domain = () => ({
      dominio: 'minera.pe',
      verificado: verified,
      verificadoPor: verified ? 'admin' : null,
      registroTxt: { nombre: '_portal-verificacion.minera.pe', valor: 'portal-verificacion=abc' },
    });
    api = await useFakeApi(
      base({
        'GET /empresas/4/dominios': () => ({ status: 200, body: [domain()], delay: 100 }),
        'POST /empresas/4/dominios/minera.pe/confirmar': () => {
          verified = true;
          return { status: 200, body: domain() };
        },
      }),
    );
    show('/admin/empresas/4');
    await user.click(await screen.findByRole('tab', { name: 'Dominios' }));
    await user.click(await screen.findByRole('button', { name: 'Confirmar minera.pe' }));
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    const outcome = await screen.findByText('Dominio minera.pe verificado');
    // The list comes back without 'Confirmar': the focus it held goes to the outcome.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Confirmar minera.pe' })).not.toBeInTheDocument());
    await waitFor(() => expect(outcome).toHaveFocus());
  });

  it("taking a seat back in 'Puestos': its row goes, and the keyboard ends at the outcome", async () => {
    const user = userEvent.setup();
    let taken = false;
    const seat = { idUsuario: 10, idApp: 2, email: 'persona10@minera.pe', asignadoEn: '2027-01-07T00:00:00.000Z' };
    api = await useFakeApi(
      base({
        'GET /empresas/4/puestos': () => ({
          status: 200,
          body: { data: taken ? [] : [seat], total: taken ? 0 : 1, siguiente: null },
          delay: 100,
        }),
        'DELETE /empresas/4/puestos/10/2': () => {
          taken = true;
          return { status: 204 };
        },
      }),
    );
    show('/admin/empresas/4');
    await user.click(await screen.findByRole('tab', { name: 'Puestos' }));
    await user.click(
      await screen.findByRole('button', { name: 'Quitar puesto de Control Max 360 a persona10@minera.pe' }),
    );
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Quitar puesto' }));
    const outcome = await screen.findByText('Puesto de Control Max 360 quitado');
    await waitFor(() => expect(screen.queryByText('persona10@minera.pe')).not.toBeInTheDocument());
    await waitFor(() => expect(outcome).toHaveFocus());
  });

  it('an accepted or revoked invitation shows no expiry; a pending or lapsed one its date', async () => {
    const user = userEvent.setup();
    const sent = { rol: 'miembro', enviadaEn: '2027-01-07T10:00:00.000Z', vence: '2027-01-14T10:00:00.000Z' };
    api = await useFakeApi(
      base({
        'GET /empresas/4/invitaciones': {
          status: 200,
          body: [
            { id: 1, email: 'acepto@minera.pe', estado: 'aceptada', ...sent },
            { id: 2, email: 'revocada@minera.pe', estado: 'revocada', ...sent },
            { id: 3, email: 'vencida@minera.pe', estado: 'vencida', ...sent },
            { id: 4, email: 'espera@minera.pe', estado: 'pendiente', ...sent },
          ],
        },
      }),
    );
    show('/admin/empresas/4');
    await user.click(await screen.findByRole('tab', { name: 'Invitaciones' }));
    const expiry = (email: string) =>
      within(screen.getByText(email).closest('tr') as HTMLElement).getAllByRole('cell')[4]?.textContent;
    expect(await screen.findByText('acepto@minera.pe')).toBeInTheDocument();
    expect(expiry('acepto@minera.pe')).toBe('—');
    expect(expiry('revocada@minera.pe')).toBe('—');
    expect(expiry('vencida@minera.pe')).toBe(new Date(sent.vence).toLocaleDateString('es-ES'));
    expect(expiry('espera@minera.pe')).toBe(new Date(sent.vence).toLocaleDateString('es-ES'));
  });

  it('invites with a role, resends and revokes', async () => {
    const user = userEvent.setup();
    const invitation = {
      id: 3,
      email: 'nuevo@minera.pe',
      rol: 'miembro',
      estado: 'pendiente',
      enviadaEn: '2027-01-07T10:00:00.000Z',
      vence: '2027-01-14T10:00:00.000Z',
    };
    api = await useFakeApi(
      base({
        'GET /empresas/4/invitaciones': { status: 200, body: [invitation] },
        'POST /empresas/4/invitaciones': (request: { body: string }) => {
          const body = JSON.parse(request.body);
          return body.email === 'persona10@minera.pe'
            ? { status: 409, body: { statusCode: 409, code: 'YA_ES_MIEMBRO', message: 'Esa persona ya es miembro' } }
            : { status: 201, body: { ...invitation, id: 4, ...body } };
        },
        'POST /empresas/4/invitaciones/3/reenviar': {
          status: 429,
          body: { statusCode: 429, message: 'Espera 60 s para reenviar el código', retryAfter: 60 },
        },
        'DELETE /empresas/4/invitaciones/3': { status: 204 },
      }),
    );
    show('/admin/empresas/4');
    await user.click(await screen.findByRole('tab', { name: 'Invitaciones' }));
    expect(await screen.findByText('nuevo@minera.pe')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Invitar' }));
    const dialog = screen.getByRole('dialog', { name: 'Invitar a la empresa' });
    await user.type(within(dialog).getByLabelText('Email'), 'persona10@minera.pe');
    await user.click(within(dialog).getByRole('button', { name: 'Enviar invitación' }));
    expect(await within(dialog).findByText('Esa persona ya es miembro')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Email'));
    await user.type(within(dialog).getByLabelText('Email'), 'jefe@minera.pe');
    await user.selectOptions(within(dialog).getByLabelText('Rol'), 'propietario');
    await user.click(within(dialog).getByRole('button', { name: 'Enviar invitación' }));
    expect(await screen.findByText('Invitación enviada a jefe@minera.pe')).toBeInTheDocument();
    expect(bodiesTo(api, '/empresas/4/invitaciones').filter(Boolean)).toEqual([
      { email: 'persona10@minera.pe', rol: 'miembro' },
      { email: 'jefe@minera.pe', rol: 'propietario' },
    ]);

    await user.click(screen.getByRole('button', { name: 'Reenviar invitación a nuevo@minera.pe' }));
    expect(await screen.findByText('Espera 60 s para reenviar el código')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Revocar invitación a nuevo@minera.pe' }));
    const confirm = screen.getByRole('dialog', { name: '¿Revocar la invitación a nuevo@minera.pe?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revocar' }));
    expect(await screen.findByText('Invitación a nuevo@minera.pe revocada')).toBeInTheDocument();
    await waitFor(() => expect(queriesTo(api, '/empresas/4/invitaciones').length).toBeGreaterThanOrEqual(5));
  });

  it('saves the settings (the second factor switches too) and shows the seat report', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'PATCH /empresas/4/ajustes': {
          status: 200,
          body: company({ altaPorDominio: 'aprobacion', exigirSegundoFactor: true }),
        },
        'GET /empresas/4/informe-puestos': {
          status: 200,
          body: [
            {
              app: { id: 2, nombre: 'Control Max 360' },
              plan: { id: 5, nombre: 'Pro' },
              comprados: 3,
              enUso: 3,
              libres: 0,
              excedidos: 0,
              fechaVencimiento: '2027-01-20T23:59:59.000Z',
              vencePronto: true,
              vencida: false,
              esperando: 2,
              roles: [
                { clave: 'operador', nombre: 'Operador', personas: 2 },
                { clave: 'supervisor', nombre: 'Supervisor', personas: 1 },
              ],
            },
          ],
        },
      }),
    );
    show('/admin/empresas/4');
    await user.click(await screen.findByRole('tab', { name: 'Ajustes' }));
    await user.click(screen.getByLabelText(/Con aprobación/));
    await user.click(screen.getByLabelText('Exigir segundo factor'));
    const devices = screen.getByRole('checkbox', {
      name: 'Permitir que los miembros recuerden un dispositivo durante 30 días',
    });
    const provider = screen.getByRole('checkbox', { name: 'Confiar en el segundo factor del proveedor de la empresa' });
    // The defaults: devices allowed, the provider's factor not believed.
    expect([devices, provider].map((box) => (box as HTMLInputElement).checked)).toEqual([true, false]);
    expect(devices).toHaveAccessibleDescription(
      /dejan de valer\. Nunca vale cuando una aplicación pide el segundo factor/,
    );
    await user.click(devices);
    await user.click(provider);
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    // The keyboard goes on from the outcome (the button waited, disabled, while it was sent).
    const saved = await screen.findByText('Ajustes guardados');
    await waitFor(() => expect(saved).toHaveFocus());
    expect(bodiesTo(api, '/empresas/4/ajustes')).toEqual([
      {
        altaPorDominio: 'aprobacion',
        exigirSegundoFactor: true,
        permitirDispositivosConfiables: false,
        confiarSegundoFactorDelProveedor: true,
      },
    ]);

    await user.click(screen.getByRole('tab', { name: 'Informe de puestos' }));
    const report = await screen.findByRole('table', { name: 'Informe de puestos por app y plan' });
    expect(within(report).getByText('Vence pronto')).toBeInTheDocument();
    expect(within(report).getByRole('columnheader', { name: 'Esperando' })).toBeInTheDocument();
    expect(within(report).getByRole('columnheader', { name: 'Roles' })).toBeInTheDocument();
    expect(within(report).getByText('Operador: 2 · Supervisor: 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Descargar CSV' })).toBeEnabled();
  });
});
