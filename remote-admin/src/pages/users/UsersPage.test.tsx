import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import UsersPage from './UsersPage';
import type { AdminUser } from '@portal/shared';
import { listedUser, page, queriesTo, renderAt, bodiesTo, useFakeApi, type FakeApi } from '../../testing/setup';

const stats = { status: 200, body: { totalUsers: 120, activeUsers: 100, pendingVerification: 15, administrators: 1 } };

let api: FakeApi;
afterEach(() => api?.close());

function listReply(total: number) {
  return (request: { path: string }) => {
    const query = new URLSearchParams(request.path.split('?')[1]);
    const p = Number(query.get('page') ?? 1);
    const limit = Number(query.get('limit') ?? 50);
    const first = (p - 1) * limit + 1;
    // A few rows stand for the page: enough to read, light enough for jsdom.
    const count = Math.max(0, Math.min(limit, 3, total - first + 1));
    const status = query.get('status') ?? 'active';
    const users = Array.from({ length: count }, (_, i) =>
      listedUser(first + i, { status: status as AdminUser['status'] }),
    );
    const body = page(users, total, p, limit);
    // Cursors that name the page they come from.
    return {
      status: 200,
      body: { ...body, nextCursor: body.hasNextPage ? `fin-${p}` : null, prevCursor: p > 1 ? `inicio-${p}` : null },
    };
  };
}

describe('user management', () => {
  it('shows the stat cards, administrators as the count minus 2 but never below zero', async () => {
    api = await useFakeApi({ 'GET /user/stats': stats, 'GET /user/listar': listReply(3) });
    renderAt('/admin/usuarios', <UsersPage />);
    expect(await screen.findByText('120')).toBeInTheDocument();
    expect(screen.getByText('Administradores').nextSibling).toHaveTextContent('0');
    expect(screen.getByText('Pendientes de verificación').nextSibling).toHaveTextContent('15');
  });

  it("shows each user with its formats and the spec's status labels", async () => {
    const users = [
      listedUser(1, {
        name: 'Ana',
        lastName: 'Pérez',
        email: 'ana@example.com',
        status: 'active',
        createdAt: '2026-03-05T12:00:00.000Z',
      }),
      // Rows the API's schema never sends (no date, an unknown or empty status): the table still shows them.
      listedUser(2, { status: 'pending_verification', createdAt: null as unknown as string }),
      listedUser(3, { status: 'suspended', role: 1 }),
      listedUser(4, { status: 'archivado' as AdminUser['status'] }),
      listedUser(5, { status: '' as AdminUser['status'] }),
    ];
    api = await useFakeApi({
      'GET /user/stats': stats,
      'GET /user/listar': { status: 200, body: page(users, 5, 1, 50) },
    });
    renderAt('/admin/usuarios', <UsersPage />);
    const ana = (await screen.findByText('ana@example.com')).closest('tr')!;
    expect(within(ana).getByText('Ana Pérez')).toBeInTheDocument();
    expect(within(ana).getByText('Activo')).toBeInTheDocument();
    expect(within(ana).getByText('5/3/2026')).toBeInTheDocument();
    expect(within(ana).getByText('Usuario')).toBeInTheDocument();
    const row = (email: string) => screen.getByText(email).closest('tr')!;
    expect(within(row('usuario2@example.com')).getByText('Pendiente Verificación')).toBeInTheDocument();
    expect(within(row('usuario2@example.com')).getByText('Sin fecha')).toBeInTheDocument();
    expect(within(row('usuario3@example.com')).getByText('Suspendido')).toBeInTheDocument();
    expect(within(row('usuario3@example.com')).getByText('Administrador')).toBeInTheDocument();
    expect(within(row('usuario4@example.com')).getByText('archivado')).toBeInTheDocument();
    expect(within(row('usuario5@example.com')).getByText('Sin estado')).toBeInTheDocument();
  });

  it("shows a user's picture only from the identity provider's avatar host, without telling it where from", async () => {
    const google = 'https://lh3.googleusercontent.com/a/ACg8oc-ana=s96-c';
    const users = [
      listedUser(1, { email: 'ana@example.com', picture: google }),
      // Set through the API before it checked, or by hand in the database: never fetched by an administrator.
      listedUser(2, { email: 'rastreo@example.com', picture: 'https://attacker.example/pixel.png?u=2' }),
      listedUser(3, { email: 'http@example.com', picture: 'http://lh3.googleusercontent.com/a/x' }),
    ];
    api = await useFakeApi({
      'GET /user/stats': stats,
      'GET /user/listar': { status: 200, body: page(users, 3, 1, 50) },
    });
    const { container } = renderAt('/admin/usuarios', <UsersPage />);
    await screen.findByText('ana@example.com');
    const images = Array.from(container.querySelectorAll('img'));
    expect(images.map((image) => image.getAttribute('src'))).toEqual([google]);
    expect(images[0]).toHaveAttribute('referrerpolicy', 'no-referrer');
    // The others get the initial instead.
    expect(within(screen.getByText('rastreo@example.com').closest('tr')!).getByText('U')).toBeInTheDocument();
  });

  it('asks for page 1 of 50 first and shows up to 5 page numbers', async () => {
    api = await useFakeApi({ 'GET /user/stats': stats, 'GET /user/listar': listReply(500) });
    renderAt('/admin/usuarios', <UsersPage />);
    await screen.findByText('usuario1@example.com');
    expect(queriesTo(api, '/user/listar')[0]).toEqual({ page: '1', limit: '50' });
    const pages = within(screen.getByRole('navigation', { name: 'Paginación' }));
    expect(pages.getAllByRole('button', { name: /^Página/ }).map((b) => b.textContent)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    expect(pages.getByRole('button', { name: 'Anterior' })).toBeDisabled();

    await userEvent.click(pages.getByRole('button', { name: 'Página 5' }));
    await screen.findByText('usuario201@example.com');
    expect(pages.getAllByRole('button', { name: /^Página/ }).map((b) => b.textContent)).toEqual([
      '3',
      '4',
      '5',
      '6',
      '7',
    ]);
    expect(pages.getByRole('button', { name: 'Página 5' })).toHaveAttribute('aria-current', 'page');
  });

  it('asks for the next and previous page with the cursor of the page on screen, a numbered page by its number', async () => {
    const user = userEvent.setup();
    api = await useFakeApi({ 'GET /user/stats': stats, 'GET /user/listar': listReply(500) });
    renderAt('/admin/usuarios', <UsersPage />);
    await screen.findByText('usuario1@example.com');
    const pages = within(screen.getByRole('navigation', { name: 'Paginación' }));

    await user.click(pages.getByRole('button', { name: 'Siguiente' }));
    await screen.findByText('usuario51@example.com');
    expect(queriesTo(api, '/user/listar').at(-1)).toEqual({ page: '2', limit: '50', after: 'fin-1' });
    expect(pages.getByRole('button', { name: 'Página 2' })).toHaveAttribute('aria-current', 'page');

    await user.click(pages.getByRole('button', { name: 'Siguiente' }));
    await screen.findByText('usuario101@example.com');
    expect(queriesTo(api, '/user/listar').at(-1)).toEqual({ page: '3', limit: '50', after: 'fin-2' });

    await user.click(pages.getByRole('button', { name: 'Anterior' }));
    await screen.findByText('usuario51@example.com');
    expect(queriesTo(api, '/user/listar').at(-1)).toEqual({ page: '2', limit: '50', before: 'inicio-3' });

    await user.click(pages.getByRole('button', { name: 'Página 5' }));
    await screen.findByText('usuario201@example.com');
    expect(queriesTo(api, '/user/listar').at(-1)).toEqual({ page: '5', limit: '50' });
    await user.click(pages.getByRole('button', { name: 'Siguiente' }));
    await screen.findByText('usuario251@example.com');
    expect(queriesTo(api, '/user/listar').at(-1)).toEqual({ page: '6', limit: '50', after: 'fin-5' });
  });

  it('says how many users match, and that a broad email filter matches more than 1 000', async () => {
    const user = userEvent.setup();
    api = await useFakeApi({
      'GET /user/stats': stats,
      'GET /user/listar': (request) => {
        const reply = listReply(request.path.includes('email=') ? 1000 : 1234)(request);
        return { ...reply, body: { ...reply.body, totalCapped: request.path.includes('email=') } };
      },
    });
    renderAt('/admin/usuarios', <UsersPage />);
    expect(await screen.findByText('1234 usuarios')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Filtrar por email'), 'usuario');
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    expect(
      await screen.findByText('Más de 1000 usuarios: escribe más del email para acotar la búsqueda'),
    ).toBeInTheDocument();
  });

  it('goes back to page 1 when the page size, the status filter or the searched email change', async () => {
    const user = userEvent.setup();
    api = await useFakeApi({ 'GET /user/stats': stats, 'GET /user/listar': listReply(500) });
    renderAt('/admin/usuarios', <UsersPage />);
    await screen.findByText('usuario1@example.com');
    const goToPage3 = async () => {
      await user.click(screen.getByRole('button', { name: 'Página 3' }));
      await waitFor(() => expect(queriesTo(api, '/user/listar').at(-1)?.page).toBe('3'));
    };

    await goToPage3();
    await user.selectOptions(screen.getByLabelText('Usuarios por página'), '20');
    await waitFor(() => expect(queriesTo(api, '/user/listar').at(-1)).toEqual({ page: '1', limit: '20' }));

    await goToPage3();
    await user.selectOptions(screen.getByLabelText('Estado'), 'suspended');
    await waitFor(() =>
      expect(queriesTo(api, '/user/listar').at(-1)).toEqual({ page: '1', limit: '20', status: 'suspended' }),
    );

    await goToPage3();
    await user.type(screen.getByLabelText('Filtrar por email'), 'ana@');
    // Typing alone does not search.
    expect(queriesTo(api, '/user/listar').at(-1)?.email).toBeUndefined();
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    await waitFor(() =>
      expect(queriesTo(api, '/user/listar').at(-1)).toEqual({
        page: '1',
        limit: '20',
        status: 'suspended',
        email: 'ana@',
      }),
    );
  });

  it('moves to the last page when the current page is past the end', async () => {
    let total = 500;
    api = await useFakeApi({
      'GET /user/stats': stats,
      'GET /user/listar': (request) => listReply(total)(request),
    });
    renderAt('/admin/usuarios', <UsersPage />);
    await screen.findByText('usuario1@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Página 5' }));
    await screen.findByText('usuario201@example.com');
    total = 120;
    await userEvent.click(screen.getByRole('button', { name: 'Página 6' }));
    // Page 6 of a list that now has 3 pages: the page moves to 3.
    await waitFor(() => expect(queriesTo(api, '/user/listar').at(-1)?.page).toBe('3'));
    expect(await screen.findByText('usuario101@example.com')).toBeInTheDocument();
  });

  it('says so when no user matches, and asks nobody to be marked', async () => {
    const user = userEvent.setup();
    api = await useFakeApi({ 'GET /user/stats': stats, 'GET /user/listar': listReply(0) });
    renderAt('/admin/usuarios', <UsersPage />);
    expect(await screen.findByText('No se encontraron usuarios')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Estado'), 'pending_verification');
    await waitFor(() =>
      expect(queriesTo(api, '/user/listar').at(-1)).toMatchObject({ status: 'pending_verification' }),
    );
    expect(screen.queryByText(/^Para verificar/)).not.toBeInTheDocument();
    expect(screen.queryByText('Marca a las personas que quieras verificar.')).not.toBeInTheDocument();
  });

  it('verifies the selected pending users only under the pending filter, then clears the selection', async () => {
    const user = userEvent.setup();
    api = await useFakeApi({
      'GET /user/stats': stats,
      'GET /user/listar': listReply(3),
      'POST /user/verify-emails': { status: 200, body: { verified: 2, userIds: [1, 3] } },
    });
    renderAt('/admin/usuarios', <UsersPage />);
    await screen.findByText('usuario1@example.com');
    const verify = screen.getByRole('button', { name: 'Verificar' });
    expect(verify).toBeDisabled();
    expect(screen.getByLabelText('Seleccionar usuario1@example.com')).toBeDisabled();

    await user.selectOptions(screen.getByLabelText('Estado'), 'pending_verification');
    await waitFor(() => expect(screen.getByLabelText('Seleccionar usuario1@example.com')).toBeEnabled());
    expect(verify).toBeDisabled();
    await user.click(screen.getByLabelText('Seleccionar usuario1@example.com'));
    await user.click(screen.getByLabelText('Seleccionar usuario3@example.com'));
    await user.click(verify);
    const dialog = await screen.findByRole('dialog', { name: 'Verificar usuarios' });
    await user.click(within(dialog).getByRole('button', { name: 'Verificar' }));

    expect(await screen.findByText(/^2 usuario\(s\) verificado\(s\) exitosamente/)).toBeInTheDocument();
    expect(bodiesTo(api, '/user/verify-emails')).toEqual([{ userIds: [1, 3] }]);
    expect(screen.getByLabelText('Seleccionar usuario1@example.com')).not.toBeChecked();
  });

  it("says why 'Verificar' and the checkboxes are greyed out, and what to do next", async () => {
    const user = userEvent.setup();
    api = await useFakeApi({ 'GET /user/stats': stats, 'GET /user/listar': listReply(3) });
    renderAt('/admin/usuarios', <UsersPage />);
    await screen.findByText('usuario1@example.com');
    const verify = screen.getByRole('button', { name: 'Verificar' });
    const outside =
      'Para verificar, elige el estado «Pendiente Verificación»: solo entonces se pueden marcar personas.';
    expect(screen.getByText(outside)).toBeInTheDocument();
    expect(verify).toHaveAccessibleDescription(outside);

    await user.selectOptions(screen.getByLabelText('Estado'), 'pending_verification');
    await waitFor(() => expect(screen.getByLabelText('Seleccionar usuario1@example.com')).toBeEnabled());
    expect(verify).toHaveAccessibleDescription('Marca a las personas que quieras verificar.');
    await user.click(screen.getByLabelText('Seleccionar usuario1@example.com'));
    expect(verify).toBeEnabled();
    expect(screen.queryByText(outside)).not.toBeInTheDocument();
  });

  it('asks before verifying, saying the password typed at registration is dropped and a mail lets them choose one', async () => {
    const user = userEvent.setup();
    api = await useFakeApi({
      'GET /user/stats': stats,
      'GET /user/listar': listReply(3),
      'POST /user/verify-emails': { status: 200, body: { verified: 1, userIds: [2] } },
    });
    renderAt('/admin/usuarios', <UsersPage />);
    await user.selectOptions(await screen.findByLabelText('Estado'), 'pending_verification');
    await user.click(await screen.findByLabelText('Seleccionar usuario2@example.com'));
    await user.click(screen.getByRole('button', { name: 'Verificar' }));

    // Cancelling sends nothing and keeps the selection.
    let dialog = await screen.findByRole('dialog', { name: 'Verificar usuarios' });
    expect(dialog).toHaveTextContent('Vas a activar 1 cuenta sin el código que se envió a su correo.');
    expect(dialog).toHaveTextContent(
      'La contraseña que se escribió al registrarse no se guarda: nadie comprobó que quien la escribió sea el dueño del correo.',
    );
    expect(dialog).toHaveTextContent(
      'Recibirá el correo «Tu cuenta está activa» con el enlace «Elegir mi contraseña». No le digas que entre con la contraseña que registró: que elija una desde ese correo o con «¿Olvidaste tu contraseña?».',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bodiesTo(api, '/user/verify-emails')).toEqual([]);
    expect(screen.getByLabelText('Seleccionar usuario2@example.com')).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Verificar' }));
    dialog = await screen.findByRole('dialog', { name: 'Verificar usuarios' });
    await user.click(within(dialog).getByRole('button', { name: 'Verificar' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      '1 usuario(s) verificado(s) exitosamente. Recibirá un correo para elegir su contraseña: la que escribió al registrarse no se guardó.',
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("says the spec's words when verifying fails, the reason only in the console", async () => {
    const user = userEvent.setup();
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    api = await useFakeApi({
      'GET /user/stats': stats,
      'GET /user/listar': listReply(2),
      'POST /user/verify-emails': { status: 500, body: { statusCode: 500, message: 'Error interno del servidor' } },
    });
    renderAt('/admin/usuarios', <UsersPage />);
    await user.selectOptions(await screen.findByLabelText('Estado'), 'pending_verification');
    await user.click(await screen.findByLabelText('Seleccionar usuario1@example.com'));
    await user.click(screen.getByRole('button', { name: 'Verificar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Verificar usuarios' });
    await user.click(within(dialog).getByRole('button', { name: 'Verificar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^Error al verificar usuarios\. Por favor, intenta de nuevo\.$/,
    );
    // Spec §8: thrown as 'Error al verificar Ids' with the reason.
    expect(logged).toHaveBeenCalledWith(
      'Error al verificar Ids',
      expect.objectContaining({ message: 'Error interno del servidor' }),
    );
    // The selection stays, to try again.
    expect(screen.getByLabelText('Seleccionar usuario1@example.com')).toBeChecked();
    logged.mockRestore();
  });

  it('suspends an active user after confirmation and reloads the list', async () => {
    const user = userEvent.setup();
    api = await useFakeApi({
      'GET /user/stats': stats,
      'GET /user/listar': listReply(2),
      'PUT /auth/cambiar-estado/2': { status: 200, body: { user: listedUser(2, { status: 'suspended' }) } },
    });
    renderAt('/admin/usuarios', <UsersPage />);
    // Cancelling changes nothing.
    await user.click(await screen.findByRole('button', { name: 'Suspender a usuario2@example.com' }));
    let dialog = await screen.findByRole('dialog', { name: 'Suspender usuario' });
    expect(dialog).toHaveTextContent('¿Suspender a usuario2@example.com?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'PUT')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Suspender a usuario2@example.com' }));
    dialog = await screen.findByRole('dialog', { name: 'Suspender usuario' });
    await user.click(within(dialog).getByRole('button', { name: 'Suspender' }));
    expect(await screen.findByText('usuario2@example.com ha sido suspendido')).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'PUT').map((r) => r.path)).toEqual(['/auth/cambiar-estado/2']);
    await waitFor(() => expect(queriesTo(api, '/user/listar')).toHaveLength(2));
    // The administrator's own row has no suspend button.
    expect(screen.queryByRole('button', { name: 'Suspender a usuario1@example.com' })).not.toBeInTheDocument();
  });
});

describe('a text filter matching more than the cap', () => {
  /** 1,200 matches of 'planta' as the API answers them: the total stops at 1,000, the rows and cursors go on. */
  function cappedReply(request: { path: string }) {
    const query = new URLSearchParams(request.path.split('?')[1]);
    const p = Number(query.get('page') ?? 1);
    const limit = Number(query.get('limit') ?? 50);
    const first = (p - 1) * limit + 1;
    const users = Array.from({ length: Math.min(3, 1200 - first + 1) }, (_, i) => listedUser(first + i));
    const hasNextPage = p * limit < 1200;
    const body = { ...page(users, 1000, p, limit), totalCapped: true, hasNextPage };
    return {
      status: 200,
      body: { ...body, nextCursor: hasNextPage ? `fin-${p}` : null, prevCursor: p > 1 ? `inicio-${p}` : null },
    };
  }

  it('reaches row 1001 and the last one with Siguiente, the capped total said as such', async () => {
    const user = userEvent.setup();
    api = await useFakeApi({ 'GET /user/stats': stats, 'GET /user/listar': cappedReply });
    renderAt('/admin/usuarios', <UsersPage />);
    await screen.findByText('usuario1@example.com');
    await user.type(screen.getByLabelText('Filtrar por email'), 'planta');
    await user.click(screen.getByRole('button', { name: 'Buscar' }));
    const pages = within(screen.getByRole('navigation', { name: 'Paginación' }));

    // Page 20 holds rows 951-1000, the last the capped count knows of.
    await user.click(pages.getByRole('button', { name: 'Página 5' }));
    for (let number = 6; number <= 20; number++) {
      await user.click(pages.getByRole('button', { name: 'Siguiente' }));
      await screen.findByText(`usuario${(number - 1) * 50 + 1}@example.com`);
    }
    expect(pages.getByRole('button', { name: 'Siguiente' })).toBeEnabled();
    await user.click(pages.getByRole('button', { name: 'Siguiente' }));
    await screen.findByText('usuario1001@example.com');
    expect(queriesTo(api, '/user/listar').at(-1)).toEqual({
      page: '21',
      limit: '50',
      email: 'planta',
      after: 'fin-20',
    });
    expect(pages.getByRole('button', { name: 'Página 21' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText(/^Más de 1\.?000 usuarios: escribe más del email para acotar la búsqueda$/)).toBeVisible();

    for (let number = 22; number <= 24; number++) {
      await user.click(pages.getByRole('button', { name: 'Siguiente' }));
      await screen.findByText(`usuario${(number - 1) * 50 + 1}@example.com`);
    }
    // Page 24 is the last: rows 1151-1200.
    expect(pages.getByRole('button', { name: 'Siguiente' })).toBeDisabled();
    await user.click(pages.getByRole('button', { name: 'Anterior' }));
    await screen.findByText('usuario1101@example.com');
    expect(queriesTo(api, '/user/listar').at(-1)).toEqual({
      page: '23',
      limit: '50',
      email: 'planta',
      before: 'inicio-24',
    });
  });
});

describe('a first load that fails', () => {
  it("says so with 'Reintentar' instead of loading for ever, and the retry shows the list", async () => {
    const user = userEvent.setup();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail = true;
    api = await useFakeApi({
      'GET /user/stats': stats,
      'GET /user/listar': (request) => (fail ? { status: 500, body: {} } : listReply(3)(request)),
    });
    renderAt('/admin/usuarios', <UsersPage />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/^Error al listar usuarios$/);
    expect(alert).toHaveFocus();
    expect(screen.queryByText('Cargando usuarios...')).toBeNull();

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    await screen.findByText('usuario1@example.com');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
