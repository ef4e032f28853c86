// 'Reglas de acceso de los miembros' in a company's 'Ajustes': what an owner sends, the warning before a rule that
// would lock them out (the network they are on, the method they signed in with) and how it is undone, the form's own
// refusals, and a platform administrator lifting every rule at once.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { whenApiIdle } from '@portal/shared';
import CompanyPage from './CompanyPage';
import { adminUser, bodiesTo, type FakeApi, renderAt, useFakeApi } from '../../testing/setup';
import { company } from '../../testing/companies';
import { addressAllowed, lockoutWarnings, NO_RULES, offeredMethods, rulesFromDraft } from '../../rules/sign-in-rules';

jest.setTimeout(30_000);

let api: FakeApi;
afterEach(async () => {
  // A section's reload may still be on its way when a test ends: it lands before the fake API goes.
  await whenApiIdle();
  window.history.replaceState(null, '', '/');
  await api?.close();
});

const owner = adminUser({
  role: 2,
  email: 'jefa@minera.pe',
  ...({ empresas: [{ id: 4, nombre: 'Minera Andina S.A.', rol: 'propietario', estado: 'activo' }] } as object),
});

const base = (over: Record<string, unknown> = {}) => ({
  'GET /empresas/4': {
    status: 200,
    body: company({
      miRol: 'propietario',
      tuAcceso: { direccion: '198.51.100.7', metodo: 'contrasena', deOtraEmpresa: false },
    }),
  },
  'GET /empresas/4/licencias': { status: 200, body: [] },
  'GET /empresas/4/miembros': { status: 200, body: { data: [], total: 0, siguiente: null } },
  'GET /auth/social/proveedores': { status: 200, body: { google: true, apple: true } },
  ...over,
});

async function openSettings(user: ReturnType<typeof userEvent.setup>) {
  renderAt('/admin/empresas/4', <CompanyPage />, { pattern: '/admin/empresas/:id' });
  await user.click(await screen.findByRole('tab', { name: 'Ajustes' }));
  return screen.findByRole('region', { name: 'Reglas de acceso de los miembros' });
}

describe("A company's sign-in rules in 'Ajustes'", () => {
  it('an owner sets networks, methods and limits; the body is what the API takes', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'PATCH /empresas/4/ajustes': {
          status: 200,
          body: company({
            miRol: 'propietario',
            redesPermitidas: ['198.51.100.0/24', '2001:db8::/32'],
            metodosPermitidos: ['contrasena', 'llave'],
            sesionMaximaHoras: 12,
            inactividadMinutos: 30,
          }),
        },
      }),
      owner,
    );
    const panel = await openSettings(user);
    await user.type(within(panel).getByLabelText('Redes permitidas'), '198.51.100.0/24\n2001:db8::/32');
    for (const name of ['Google', 'Apple', 'Inicio de sesión de la empresa'])
      await user.click(within(panel).getByLabelText(name));
    await user.type(within(panel).getByLabelText(/Duración máxima/), '12');
    await user.type(within(panel).getByLabelText(/minutos sin uso/), '30');
    // Their own network and method stay allowed: no warning.
    expect(within(panel).queryByText(/Para deshacerlo/)).not.toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Guardar reglas' }));
    const saved = await within(panel).findByText('Reglas de acceso guardadas');
    await waitFor(() => expect(saved).toHaveFocus());
    expect(bodiesTo(api, '/empresas/4/ajustes')).toEqual([
      {
        redesPermitidas: ['198.51.100.0/24', '2001:db8::/32'],
        metodosPermitidos: ['contrasena', 'llave'],
        sesionMaximaHoras: 12,
        inactividadMinutos: 30,
      },
    ]);
  });

  it('offers Google and Apple only when this portal has them, and keeps what it does not offer as it was', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /auth/social/proveedores': { status: 200, body: { google: false, apple: true } },
        'PATCH /empresas/4/ajustes': { status: 200, body: company({ miRol: 'propietario' }) },
      }),
      owner,
    );
    const panel = await openSettings(user);
    const methods = within(within(panel).getByRole('group', { name: 'Métodos de inicio de sesión permitidos' }));
    expect(await methods.findByRole('checkbox', { name: 'Apple' })).toBeChecked();
    expect(methods.queryByRole('checkbox', { name: 'Google' })).not.toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Guardar reglas' }));
    expect(await within(panel).findByText('Reglas de acceso guardadas')).toBeInTheDocument();
    expect(bodiesTo(api, '/empresas/4/ajustes')).toEqual([
      expect.objectContaining({ metodosPermitidos: ['contrasena', 'google', 'apple', 'llave', 'empresa'] }),
    ]);
    // Google alone, which this portal does not offer, is no way in: at least one offered method is asked for.
    for (const name of ['Contraseña', 'Apple', 'Llave de acceso', 'Inicio de sesión de la empresa'])
      await user.click(methods.getByRole('checkbox', { name }));
    await user.click(within(panel).getByRole('button', { name: 'Guardar reglas' }));
    expect(await within(panel).findByText('Marca al menos un método de inicio de sesión')).toBeInTheDocument();
    expect(bodiesTo(api, '/empresas/4/ajustes')).toHaveLength(1);
  });

  it('warns an owner before a rule that locks them out, says how it is undone, and saves only once they accept', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({ 'PATCH /empresas/4/ajustes': { status: 200, body: company({ miRol: 'propietario' }) } }),
      owner,
    );
    const panel = await openSettings(user);
    await user.type(within(panel).getByLabelText('Redes permitidas'), '10.0.0.0/8');
    await user.click(within(panel).getByLabelText('Contraseña'));
    expect(
      within(panel).getByText(/Estás conectado desde 198\.51\.100\.7, que no está en las redes permitidas/),
    ).toBeInTheDocument();
    expect(
      within(panel).getByText(/Has iniciado sesión con tu contraseña, que dejaría de estar permitido/),
    ).toBeInTheDocument();
    expect(within(panel).getByText(/npm run admin -- empresa reglas <id> --quitar/)).toBeInTheDocument();
    const save = within(panel).getByRole('button', { name: 'Guardar reglas' });
    expect(save).toBeDisabled();
    await user.click(within(panel).getByLabelText('Entiendo que puedo quedarme sin acceso'));
    expect(save).toBeEnabled();
    await user.click(save);
    expect(await within(panel).findByText('Reglas de acceso guardadas')).toBeInTheDocument();
    expect(bodiesTo(api, '/empresas/4/ajustes')).toEqual([
      {
        redesPermitidas: ['10.0.0.0/8'],
        metodosPermitidos: ['google', 'apple', 'llave', 'empresa'],
        sesionMaximaHoras: null,
        inactividadMinutos: null,
      },
    ]);
  });

  it('refuses in Spanish, sending nothing, a bad network, no method or a limit out of range', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(base(), owner);
    const panel = await openSettings(user);
    const save = within(panel).getByRole('button', { name: 'Guardar reglas' });
    await user.type(within(panel).getByLabelText('Redes permitidas'), 'intranet');
    await user.click(save);
    expect(await within(panel).findByText(/«intranet» no es una red válida/)).toBeInTheDocument();
    await user.clear(within(panel).getByLabelText('Redes permitidas'));
    await user.type(within(panel).getByLabelText(/Duración máxima/), '721');
    await user.click(save);
    expect(await within(panel).findByText(/Revisa «Duración máxima/)).toBeInTheDocument();
    expect(bodiesTo(api, '/empresas/4/ajustes')).toEqual([]);
  });

  it('a platform administrator is never warned and lifts every rule at once', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4': {
          status: 200,
          body: company({ redesPermitidas: ['10.0.0.0/8'], metodosPermitidos: ['empresa'], sesionMaximaHoras: 8 }),
        },
        'PATCH /empresas/4/ajustes': { status: 200, body: company() },
      }),
    );
    const panel = await openSettings(user);
    expect(within(panel).queryByText(/Para deshacerlo/)).not.toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Quitar todas las reglas' }));
    expect(await within(panel).findByText(/Reglas de acceso quitadas/)).toBeInTheDocument();
    expect(bodiesTo(api, '/empresas/4/ajustes')).toEqual([NO_RULES]);
    expect(within(panel).getByLabelText('Redes permitidas')).toHaveValue('');
  });
});

describe('the rules read in the panel', () => {
  it('offers the methods this portal has: Google and Apple when configured, every one when it could not ask', () => {
    expect(offeredMethods({ google: false, apple: false })).toEqual(['contrasena', 'llave', 'empresa']);
    expect(offeredMethods({ google: true, apple: false })).toEqual(['contrasena', 'google', 'llave', 'empresa']);
    expect(offeredMethods(null)).toEqual(['contrasena', 'google', 'apple', 'llave', 'empresa']);
  });

  it('matches addresses to networks, IPv4 and IPv6', () => {
    expect(addressAllowed([], '203.0.113.9')).toBe(true);
    expect(addressAllowed(['203.0.113.0/24'], '203.0.113.9')).toBe(true);
    expect(addressAllowed(['203.0.113.0/24'], '203.0.114.9')).toBe(false);
    expect(addressAllowed(['203.0.113.0/24'], '::ffff:203.0.113.9')).toBe(true);
    expect(addressAllowed(['2001:db8::/32'], '2001:db8:1::5')).toBe(true);
    expect(addressAllowed(['2001:db8::/32'], '2001:db9::5')).toBe(false);
    expect(addressAllowed(['192.0.2.7'], '192.0.2.7')).toBe(true);
    expect(addressAllowed(['0.0.0.0/0'], '::1')).toBe(false);
  });

  it('warns only a member bound by the rules', () => {
    const rules = { ...NO_RULES, redesPermitidas: ['10.0.0.0/8'] };
    const access = { direccion: '127.0.0.1', metodo: 'llave' as const, deOtraEmpresa: false };
    expect(lockoutWarnings(rules, access, true)).toHaveLength(1);
    expect(lockoutWarnings(rules, access, false)).toEqual([]);
  });

  it("warns a member signed in through another company's provider of any methods rule, and of none without one", () => {
    const guest = { direccion: '127.0.0.1', metodo: 'empresa' as const, deOtraEmpresa: true };
    expect(lockoutWarnings({ ...NO_RULES, metodosPermitidos: ['empresa', 'contrasena'] }, guest, true)).toEqual([
      'Has iniciado sesión con el inicio de sesión de otra empresa, que dejaría de estar permitido: al guardar se cerrará tu sesión y tendrás que entrar con otro método.',
    ]);
    expect(lockoutWarnings(NO_RULES, guest, true)).toEqual([]);
    const own = { ...guest, deOtraEmpresa: false };
    expect(lockoutWarnings({ ...NO_RULES, metodosPermitidos: ['empresa'] }, own, true)).toEqual([]);
    expect(rulesFromDraft({ networks: '', methods: [], maxHours: '', idleMinutes: '' })).toEqual({
      error: 'Marca al menos un método de inicio de sesión',
    });
  });
});
