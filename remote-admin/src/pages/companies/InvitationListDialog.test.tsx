import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import CompanyPage from './CompanyPage';
import { adminUser, bodiesTo, type FakeApi, renderAt, useFakeApi } from '../../testing/setup';
import { company } from '../../testing/companies';
import type { InvitationListResult, InvitationListRow, Licence } from '../../api/company-types';

// Long flows on a shared machine: a list typed, sent in parts.
jest.setTimeout(30_000);

let api: FakeApi;
afterEach(() => {
  window.history.replaceState(null, '', '/');
  return api?.close();
});

const LIST = '/empresas/4/invitaciones/lote';
const limitMessage = 'Se enviaron demasiadas invitaciones en la última hora. Podrás enviar más en 42 minutos.';

const licences: Licence[] = [
  {
    id: 1,
    app: { id: 2, nombre: 'Control Max 360' },
    plan: { id: 5, nombre: 'Pro' },
    puestos: 200,
    enUso: 0,
    libres: 200,
    excedidos: 0,
    fechaVencimiento: '2099-12-31T23:59:59.000Z',
    vencida: false,
  },
];

/** The API's answer to a part of the list: 'invitada' unless `answer` says otherwise for a row. */
const answering =
  (answer: (row: InvitationListRow, fila: number) => Partial<InvitationListResult> = () => ({}), delay = 0) =>
  (request: { body: string }) => {
    const { filas } = JSON.parse(request.body) as { filas: InvitationListRow[] };
    const resultados = filas.map((row, i) => ({
      fila: i + 1,
      email: row.email,
      resultado: 'invitada' as const,
      ...answer(row, i + 1),
    }));
    return { status: 200, body: { resultados }, delay };
  };

/** The company page of a platform administrator (who gives every role), on its invitations, the list dialog open. */
async function openList(routes: Record<string, unknown> = {}, user = userEvent.setup(), viewer = adminUser()) {
  api = await useFakeApi(
    {
      'GET /empresas/4': { status: 200, body: company() },
      'GET /empresas/4/licencias': { status: 200, body: licences },
      'GET /empresas/4/miembros': { status: 200, body: { data: [], total: 0, siguiente: null } },
      'GET /empresas/4/invitaciones': { status: 200, body: [] },
      ...routes,
    } as Parameters<typeof useFakeApi>[0],
    viewer,
  );
  renderAt('/admin/empresas/4', <CompanyPage />, { pattern: '/admin/empresas/:id' });
  await user.click(await screen.findByRole('tab', { name: 'Invitaciones' }));
  await user.click(await screen.findByRole('button', { name: 'Invitar a varias personas' }));
  const dialog = screen.getByRole('dialog', { name: 'Invitar a varias personas' });
  return { user, dialog };
}

async function paste(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, text: string) {
  await user.click(within(dialog).getByLabelText('Lista de personas'));
  await user.paste(text);
}

/** The preview's rows as [email, line, role, app, status]. */
const previewRows = (dialog: HTMLElement) =>
  within(within(dialog).getByRole('table', { name: 'Personas de la lista' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

/** Once a list was sent the page reads its invitations again: the test waits for it before the fake API closes. */
const readAgain = () =>
  waitFor(() =>
    expect(
      api.requests.filter((r) => r.method === 'GET' && r.path === '/empresas/4/invitaciones').length,
    ).toBeGreaterThan(1),
  );

const people = (count: number, line = (i: number) => `op${i}@planta.pe, Miembro, Control Max 360`) =>
  Array.from({ length: count }, (_, i) => line(i + 1)).join('\n');

describe("'Invitar a varias personas'", () => {
  it('shows each person of a pasted list with what stops them, before anything is sent', async () => {
    const { user, dialog } = await openList();
    expect(within(dialog).getByText(/Pega la lista o carga un archivo CSV/)).toBeInTheDocument();
    await paste(
      user,
      dialog,
      [
        'email;rol;app',
        'Ana@Planta.pe; Administrador; Control Max 360',
        'beto@planta.pe, jefe',
        'carla@planta.pe, miembro, Hornos',
        'dario@planta.pe',
        'ana@planta.pe, Miembro',
      ].join('\n'),
    );
    expect(previewRows(dialog)).toEqual([
      ['ana@planta.pe', '2', 'Administrador', 'Control Max 360', 'Lista para enviar'],
      ['beto@planta.pe', '3', 'jefe', '—', 'El rol «jefe» no existe: usa Propietario, Administrador o Miembro.'],
      ['carla@planta.pe', '4', 'Miembro', 'Hornos', 'La empresa no tiene licencia de «Hornos».'],
      ['dario@planta.pe', '5', 'Miembro', '—', 'Lista para enviar'],
      ['ana@planta.pe', '6', 'Miembro', '—', 'Repetido: ya está en la línea 2.'],
    ]);
    expect(
      within(dialog).getByText(
        '2 personas listas para invitar · 3 con errores (no se invitarán: corrígelas en la lista).',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Enviar 2 invitaciones' })).toBeEnabled();
    expect(bodiesTo(api, LIST)).toEqual([]);

    await user.clear(within(dialog).getByLabelText('Lista de personas'));
    await paste(user, dialog, 'eva@planta.pe\nfelipe@planta.pe, jefe');
    expect(
      within(dialog).getByText('1 persona lista para invitar · 1 con errores (no se invitará: corrígela en la lista).'),
    ).toBeInTheDocument();
  });

  it('sends the list in parts with real progress and shows each row’s result; the page says how many went', async () => {
    const refusals: Record<string, Partial<InvitationListResult>> = {
      'op3@planta.pe': {
        resultado: 'ya_miembro',
        codigo: 'YA_ES_MIEMBRO',
        mensaje: 'Esa dirección ya es de un miembro de la empresa',
      },
      'op28@planta.pe': {
        resultado: 'error',
        codigo: 'SIN_PUESTOS',
        mensaje: 'No quedan puestos libres de Control Max 360 en la licencia de la empresa',
      },
    };
    let parts = 0;
    const { user, dialog } = await openList({
      // The second part answers late: the progress of the first is on screen meanwhile.
      [`POST ${LIST}`]: (request: { body: string }) =>
        answering((row) => refusals[row.email] ?? {}, ++parts === 2 ? 400 : 0)(request),
    });
    await paste(
      user,
      dialog,
      people(
        30,
        (i) => `op${i}@planta.pe; ${i === 30 ? 'administrador' : 'Miembro'}; ${i % 2 ? 'Control Max 360' : ''}`,
      ),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Enviar 30 invitaciones' }));
    expect(await within(dialog).findByText('Enviando 25 de 30…')).toBeInTheDocument();
    expect(within(dialog).getByRole('progressbar', { name: 'Invitaciones enviadas' })).toHaveAttribute('value', '25');
    expect(await within(dialog).findByRole('heading', { name: 'Resultado' })).toHaveFocus();
    expect(within(dialog).getByText('28 invitadas · 1 ya era miembro · 1 con errores')).toBeInTheDocument();

    // Two requests: 25 rows, then 5, each as the API takes it (the role and the app by their ids).
    const sent = bodiesTo(api, LIST) as { filas: InvitationListRow[] }[];
    expect(sent.map((body) => body.filas.length)).toEqual([25, 5]);
    expect(sent[0]?.filas.slice(0, 2)).toEqual([
      { email: 'op1@planta.pe', rol: 'miembro', idApp: 2 },
      { email: 'op2@planta.pe', rol: 'miembro' },
    ]);
    expect(sent[1]?.filas.at(-1)).toEqual({ email: 'op30@planta.pe', rol: 'administrador' });
    const rows = previewRows(dialog);
    expect(rows[0]?.[4]).toBe('Invitada');
    expect(rows[2]?.[4]).toBe('Ya es miembro');
    expect(rows[27]?.[4]).toBe('No quedan puestos libres de Control Max 360 en la licencia de la empresa');
    expect(within(dialog).getByLabelText('Lista de personas')).toBeDisabled();

    await user.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByText('Se enviaron 28 invitaciones')).toBeInTheDocument();
    // The invitations' list was read again.
    await readAgain();
  });

  it("stops at the hour's mail limit: the rows left are not sent and say why", async () => {
    const { user, dialog } = await openList({
      [`POST ${LIST}`]: answering((_row, fila) =>
        fila > 20
          ? { resultado: 'error', codigo: 'INVITATION_MAIL_LIMIT', mensaje: limitMessage, retryAfter: 2520 }
          : {},
      ),
    });
    await paste(user, dialog, people(40));
    await user.click(within(dialog).getByRole('button', { name: 'Enviar 40 invitaciones' }));
    expect(await within(dialog).findByText('20 invitadas · 20 con errores')).toBeInTheDocument();
    expect(bodiesTo(api, LIST)).toHaveLength(1);
    const rows = previewRows(dialog);
    expect(rows[20]?.[4]).toBe(limitMessage);
    expect(rows[39]?.[4]).toBe(`No se envió. ${limitMessage}`);
    await readAgain();
  });

  it('sends again, first, the rows the API did not get to', async () => {
    let parts = 0;
    const { user, dialog } = await openList({
      // The first part's request ran long: the API got to its first row only.
      [`POST ${LIST}`]: (request: { body: string }) => {
        const first = ++parts === 1;
        return answering((_row, fila) =>
          first && fila > 1
            ? { resultado: 'error', codigo: 'NO_PROCESADA', mensaje: 'Esta fila no se llegó a procesar' }
            : {},
        )(request);
      },
    });
    await paste(user, dialog, people(5));
    await user.click(within(dialog).getByRole('button', { name: 'Enviar 5 invitaciones' }));
    expect(await within(dialog).findByText('5 invitadas')).toBeInTheDocument();
    expect(
      (bodiesTo(api, LIST) as { filas: InvitationListRow[] }[]).map((body) => body.filas.map((row) => row.email)),
    ).toEqual([
      ['op1@planta.pe', 'op2@planta.pe', 'op3@planta.pe', 'op4@planta.pe', 'op5@planta.pe'],
      ['op2@planta.pe', 'op3@planta.pe', 'op4@planta.pe', 'op5@planta.pe'],
    ]);
    await readAgain();
  });

  it('a refused request stops the sending with its Spanish message; its rows and the rest are not sent', async () => {
    const { user, dialog } = await openList({
      [`POST ${LIST}`]: {
        status: 403,
        body: {
          statusCode: 403,
          message: 'Solo los propietarios y administradores de la empresa pueden hacer esto',
          code: 'FORBIDDEN',
        },
      },
    });
    await paste(user, dialog, people(3));
    await user.click(within(dialog).getByRole('button', { name: 'Enviar 3 invitaciones' }));
    expect(
      await within(dialog).findByText('Solo los propietarios y administradores de la empresa pueden hacer esto'),
    ).toBeInTheDocument();
    expect(previewRows(dialog).map((row) => row[4])).toEqual(['No se envió.', 'No se envió.', 'No se envió.']);
    expect(within(dialog).getByText('0 invitadas · 3 con errores')).toBeInTheDocument();
    await readAgain();
  });

  it('loads a CSV file into the list; Tab stays in the dialog and Escape closes it, back to its button', async () => {
    const { user, dialog } = await openList();
    const file = new File(['\uFEFFCorreo;Rol;App\r\nana@planta.pe;Miembro;Control Max 360\r\n;;\r\n'], 'personas.csv', {
      type: 'text/csv',
    });
    await user.upload(within(dialog).getByLabelText('Cargar archivo CSV'), file);
    expect(
      await within(dialog).findByText('Cargado: personas.csv. Revisa la lista antes de enviarla.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Lista de personas')).toHaveValue(
      // The byte order mark left out; a text area keeps its lines with \n.
      'Correo;Rol;App\nana@planta.pe;Miembro;Control Max 360\n;;\n',
    );
    expect(previewRows(dialog)).toEqual([['ana@planta.pe', '2', 'Miembro', 'Control Max 360', 'Lista para enviar']]);
    for (let i = 0; i < 8; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Invitar a varias personas' })).toHaveFocus());
    expect(bodiesTo(api, LIST)).toEqual([]);
  });

  it("an administrator's list names no owner; a list of more than 500 people is not sent", async () => {
    const manager = adminUser({
      role: 2,
      email: 'jefa@minera.pe',
      ...({ empresas: [{ id: 4, nombre: 'Minera Andina S.A.', rol: 'administrador', estado: 'activo' }] } as object),
    });
    const { user, dialog } = await openList(
      { 'GET /empresas/4': { status: 200, body: company({ miRol: 'administrador' }) } },
      userEvent.setup(),
      manager,
    );
    await paste(user, dialog, 'ana@planta.pe, Propietario');
    expect(previewRows(dialog)[0]?.[4]).toBe('Solo un propietario de la empresa puede invitar a un propietario.');
    expect(within(dialog).getByRole('button', { name: 'Enviar 0 invitaciones' })).toBeDisabled();

    await user.clear(within(dialog).getByLabelText('Lista de personas'));
    await user.paste(people(501));
    expect(
      within(dialog).getByText('La lista tiene 501 personas: envía como máximo 500 cada vez.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Enviar 501 invitaciones' })).toBeDisabled();
  });
});
