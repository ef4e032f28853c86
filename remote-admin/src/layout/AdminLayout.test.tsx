import { screen, waitFor, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import AdminLayout from './AdminLayout';
import { leaveTo } from '@portal/shared';
import { adminUser, useFakeApi, type FakeApi } from '../testing/setup';

jest.mock('@portal/shared', () => ({ ...jest.requireActual('@portal/shared'), leaveTo: jest.fn() }));

let api: FakeApi;
afterEach(() => api?.close());

function renderLayout() {
  return render(
    <MemoryRouter initialEntries={['/admin/usuarios']}>
      <Routes>
        <Route element={<AdminLayout />}>
          <Route path="/admin/usuarios" element={<p>Página de usuarios</p>} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

describe('the admin layout', () => {
  it('shows the side panel and the page', async () => {
    api = await useFakeApi({}, adminUser({ name: 'Lucía', lastName: 'Gómez' }));
    renderLayout();
    expect(screen.getByText('Página de usuarios')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Usuarios' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText('Lucía Gómez')).toBeInTheDocument();
    expect(screen.getByText('Administrador')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ir al inicio' })).toHaveAttribute('href', '/');
  });

  it('falls back to Admin when the administrator has no name', async () => {
    api = await useFakeApi({}, adminUser({ name: '', lastName: '' }));
    renderLayout();
    expect(screen.getByText('Admin')).toBeInTheDocument();
  });

  it('refuses anyone but an administrator, even standalone', async () => {
    api = await useFakeApi({}, adminUser({ role: 2 }));
    renderLayout();
    expect(screen.getByText('Acceso Denegado')).toBeInTheDocument();
    expect(screen.getByText('No tienes permisos para acceder a esta área.')).toBeInTheDocument();
    expect(screen.queryByText('Página de usuarios')).not.toBeInTheDocument();
  });

  it('signs out and loads /login afresh', async () => {
    api = await useFakeApi({ 'POST /auth/logout': { status: 204 } });
    renderLayout();
    await userEvent.click(screen.getByRole('button', { name: 'Cerrar Sesión' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('/login'));
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /auth/logout']);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('opens and closes the side panel with the toggle', async () => {
    api = await useFakeApi({});
    renderLayout();
    // The toggle only shows on small screens (CSS media query), which jsdom does not apply.
    const toggle = screen.getByRole('button', { name: /Abrir menú/, hidden: true });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Cerrar menú', hidden: true }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});
