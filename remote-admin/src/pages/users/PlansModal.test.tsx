import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultExpiry } from '../../rules/plans';
import { PlansModal } from './PlansModal';
import { bodiesTo, listedUser, renderAt, useFakeApi, type FakeApi } from '../../testing/setup';

let api: FakeApi;
afterEach(() => api?.close());

const plans = [
  {
    app: { id: 1, nombre: 'Control Max 360' },
    planActual: { id: 2, nombre: 'PRO', fechaVencimiento: '2027-03-15T00:00:00.000Z' },
    planPropio: { id: 2, nombre: 'PRO', fechaVencimiento: '2027-03-15T00:00:00.000Z', vencido: false },
    puestos: [],
    planesApp: [
      { id: 1, nombre: 'free' },
      { id: 2, nombre: 'PRO' },
    ],
  },
  {
    app: { id: 2, nombre: 'Beto Pro' },
    planActual: null,
    planPropio: null,
    puestos: [],
    planesApp: [
      { id: 3, nombre: 'free' },
      { id: 4, nombre: 'PRO' },
    ],
  },
  {
    app: { id: 4, nombre: 'C+Suite Completa' },
    planActual: null,
    planPropio: null,
    puestos: [],
    planesApp: [{ id: 9, nombre: 'Suite' }],
  },
];

const lucia = listedUser(7, { name: 'Lucía', lastName: 'Quispe', email: 'lucia@example.com' });

const row = (name: string) => screen.getByRole('heading', { name }).closest('li')!;

describe('Planes del Usuario', () => {
  it('lists each app but app 4, with the current plan and expiry, or Sin plan asignado and a year ahead', async () => {
    api = await useFakeApi({ 'POST /plan-usuario/user-app-plans': { status: 200, body: plans } });
    renderAt('/admin/usuarios', <PlansModal user={lucia} onClose={() => {}} />);
    expect(screen.getByRole('dialog', { name: 'Planes del Usuario' })).toBeInTheDocument();
    expect(screen.getByText('Cargando planes...')).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'Control Max 360' });
    expect(screen.queryByRole('heading', { name: 'C+Suite Completa' })).not.toBeInTheDocument();
    expect(bodiesTo(api, '/plan-usuario/user-app-plans')).toEqual([{ idUsuario: 7 }]);

    const control = within(row('Control Max 360'));
    expect(control.getByLabelText('Plan')).toHaveDisplayValue('PRO');
    expect(control.getByLabelText('Fecha de vencimiento')).toHaveValue('2027-03-15');
    expect(control.queryByRole('option', { name: 'Sin plan asignado' })).not.toBeInTheDocument();

    const beto = within(row('Beto Pro'));
    expect(beto.getByLabelText('Plan')).toHaveDisplayValue('Sin plan asignado');
    expect(beto.getByLabelText('Fecha de vencimiento')).toHaveValue(defaultExpiry(new Date()));
    // Plan 0 cannot be saved.
    expect(beto.getByRole('button', { name: 'Guardar Beto Pro' })).toBeDisabled();
    expect(control.getByRole('button', { name: 'Guardar Control Max 360' })).toBeEnabled();
  });

  it("a seat is shown beside the person's own plan, never as it: Guardar cannot turn it into a personal plan", async () => {
    const seated = [
      {
        app: { id: 1, nombre: 'Control Max 360' },
        // What the person has is the seat's PRO; their own plan there is none.
        planActual: {
          id: 2,
          nombre: 'PRO',
          fechaVencimiento: '2027-06-30T00:00:00.000Z',
          origen: 'empresa',
          empresa: { id: 3, nombre: 'Minera Andina' },
        },
        planPropio: null,
        puestos: [
          {
            empresa: { id: 3, nombre: 'Minera Andina' },
            plan: { id: 2, nombre: 'PRO' },
            fechaVencimiento: '2027-06-30T00:00:00.000Z',
          },
        ],
        planesApp: [
          { id: 1, nombre: 'free' },
          { id: 2, nombre: 'PRO' },
        ],
      },
    ];
    api = await useFakeApi({ 'POST /plan-usuario/user-app-plans': { status: 200, body: seated } });
    renderAt('/admin/usuarios', <PlansModal user={lucia} onClose={() => {}} />);
    await screen.findByRole('heading', { name: 'Control Max 360' });
    const control = within(row('Control Max 360'));
    expect(control.getByLabelText('Plan')).toHaveDisplayValue('Sin plan asignado');
    expect(control.getByRole('button', { name: 'Guardar Control Max 360' })).toBeDisabled();
    expect(control.getByText('Puesto de Minera Andina')).toBeInTheDocument();
    expect(control.getByText('PRO, vence el 30/6/2027. Lo gestiona la empresa.')).toBeInTheDocument();
  });

  it('a lapsed own PRO shows as PRO with the date it ended, not as Gratis with No vence', async () => {
    const lapsed = [
      {
        app: { id: 1, nombre: 'Control Max 360' },
        planActual: { id: 1, nombre: 'free', fechaVencimiento: null, origen: 'propio', empresa: null },
        planPropio: { id: 2, nombre: 'PRO', fechaVencimiento: '2026-01-15T00:00:00.000Z', vencido: true },
        puestos: [],
        planesApp: [
          { id: 1, nombre: 'free' },
          { id: 2, nombre: 'PRO' },
        ],
      },
    ];
    api = await useFakeApi({ 'POST /plan-usuario/user-app-plans': { status: 200, body: lapsed } });
    renderAt('/admin/usuarios', <PlansModal user={lucia} onClose={() => {}} />);
    await screen.findByRole('heading', { name: 'Control Max 360' });
    const control = within(row('Control Max 360'));
    expect(control.getByLabelText('Plan')).toHaveDisplayValue('PRO');
    expect(control.getByLabelText('Fecha de vencimiento')).toHaveValue('2026-01-15');
    expect(control.getByRole('note')).toHaveTextContent(
      'Venció el 15/1/2026: renueva la fecha para que vuelva a contar.',
    );
    expect(control.queryByText('No vence')).not.toBeInTheDocument();
  });

  it('saves the plan with the expiry at midnight UTC, says so and reloads the list', async () => {
    const user = userEvent.setup();
    api = await useFakeApi({
      'POST /plan-usuario/user-app-plans': { status: 200, body: plans },
      'POST /plan-usuario/cambiar-plan-app': { status: 200, body: plans[1], delay: 300 },
    });
    renderAt('/admin/usuarios', <PlansModal user={lucia} onClose={() => {}} />);
    await screen.findByRole('heading', { name: 'Beto Pro' });
    const beto = within(row('Beto Pro'));
    await user.selectOptions(beto.getByLabelText('Plan'), 'PRO');
    const date = beto.getByLabelText('Fecha de vencimiento');
    await user.clear(date);
    await user.type(date, '2028-01-31');
    const save = beto.getByRole('button', { name: 'Guardar Beto Pro' });
    await user.click(save);
    // Disabled while saving.
    expect(save).toBeDisabled();

    expect(await screen.findByText('Plan actualizado exitosamente!')).toBeInTheDocument();
    expect(bodiesTo(api, '/plan-usuario/cambiar-plan-app')).toEqual([
      { idUsuario: 7, idApp: 2, idPlan: 4, fechaVencimiento: '2028-01-31T00:00:00.000Z' },
    ]);
    await waitFor(() => expect(bodiesTo(api, '/plan-usuario/user-app-plans')).toHaveLength(2));
    // The rows start again from the reloaded plans: the keyboard is at the outcome, still inside the dialog.
    await waitFor(() => expect(screen.getByText('Plan actualizado exitosamente!')).toHaveFocus());
  });

  it("shows the server's message, or the plan update's fallback (spec §8), when saving fails", async () => {
    const user = userEvent.setup();
    api = await useFakeApi({
      'POST /plan-usuario/user-app-plans': { status: 200, body: plans },
      'POST /plan-usuario/cambiar-plan-app': { status: 500, body: {} },
    });
    renderAt('/admin/usuarios', <PlansModal user={lucia} onClose={() => {}} />);
    await screen.findByRole('heading', { name: 'Control Max 360' });
    await user.click(within(row('Control Max 360')).getByRole('button', { name: 'Guardar Control Max 360' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error al actualizar plan de usuario');
  });

  it('names the person whose plans it edits under the title', async () => {
    api = await useFakeApi({ 'POST /plan-usuario/user-app-plans': { status: 200, body: plans } });
    renderAt('/admin/usuarios', <PlansModal user={lucia} onClose={() => {}} />);
    const title = within(screen.getByRole('dialog', { name: 'Planes del Usuario' })).getByRole('heading', { level: 2 });
    expect(title).toHaveTextContent(/^Planes del Usuario$/);
    expect(title.nextElementSibling).toHaveTextContent(/^Lucía Quispe · lucia@example\.com$/);
    await screen.findByRole('heading', { name: 'Control Max 360' });
  });

  it('names the person by email when they have no name', async () => {
    api = await useFakeApi({ 'POST /plan-usuario/user-app-plans': { status: 200, body: plans } });
    renderAt('/admin/usuarios', <PlansModal user={{ ...lucia, name: '', lastName: '' }} onClose={() => {}} />);
    const title = within(screen.getByRole('dialog', { name: 'Planes del Usuario' })).getByRole('heading', { level: 2 });
    expect(title.nextElementSibling).toHaveTextContent(/^lucia@example\.com$/);
    await screen.findByRole('heading', { name: 'Control Max 360' });
  });

  it('shows no expiry for a free plan, which never expires, and asks for one again for a paid plan', async () => {
    const user = userEvent.setup();
    const free = [
      {
        ...plans[1],
        planActual: { id: 3, nombre: 'free', fechaVencimiento: null },
        planPropio: { id: 3, nombre: 'free', fechaVencimiento: '2027-01-01T00:00:00.000Z', vencido: false },
      },
    ];
    api = await useFakeApi({
      'POST /plan-usuario/user-app-plans': { status: 200, body: free },
      'POST /plan-usuario/cambiar-plan-app': { status: 200, body: free[0] },
    });
    renderAt('/admin/usuarios', <PlansModal user={lucia} onClose={() => {}} />);
    await screen.findByRole('heading', { name: 'Beto Pro' });
    const beto = within(row('Beto Pro'));
    expect(beto.getByLabelText('Plan')).toHaveDisplayValue('Gratis');
    expect(beto.queryByLabelText('Fecha de vencimiento')).not.toBeInTheDocument();
    expect(beto.getByText('No vence')).toBeInTheDocument();

    // A paid plan asks for its date.
    await user.selectOptions(beto.getByLabelText('Plan'), 'PRO');
    expect(beto.getByLabelText('Fecha de vencimiento')).toHaveValue(defaultExpiry(new Date()));
    expect(beto.queryByText('No vence')).not.toBeInTheDocument();
    await user.clear(beto.getByLabelText('Fecha de vencimiento'));
    expect(beto.getByRole('button', { name: 'Guardar Beto Pro' })).toBeDisabled();

    // Back to free: the date left empty above is not asked for. The call still carries a date (spec §7), the one a
    // new plan starts with; nothing reads it for a free plan.
    await user.selectOptions(beto.getByLabelText('Plan'), 'Gratis');
    expect(beto.getByText('No vence')).toBeInTheDocument();
    await user.click(beto.getByRole('button', { name: 'Guardar Beto Pro' }));
    expect(await screen.findByText('Plan actualizado exitosamente!')).toBeInTheDocument();
    expect(bodiesTo(api, '/plan-usuario/cambiar-plan-app')).toEqual([
      { idUsuario: 7, idApp: 2, idPlan: 3, fechaVencimiento: `${defaultExpiry(new Date())}T00:00:00.000Z` },
    ]);
  });

  it('says when the user has no plans to show', async () => {
    api = await useFakeApi({ 'POST /plan-usuario/user-app-plans': { status: 200, body: [plans[2]] } });
    renderAt('/admin/usuarios', <PlansModal user={lucia} onClose={() => {}} />);
    expect(await screen.findByText('No se encontraron planes para este usuario.')).toBeInTheDocument();
  });
});
