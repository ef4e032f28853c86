import {
  companyRoleLabel,
  dayFromExpiry,
  expiryFromDay,
  grantableRoles,
  licenceProblem,
  licenceStatus,
  managedCompanies,
  mayManageMember,
  mayOpenCompany,
  platformActions,
  certificateStatus,
  companyAuditDetails,
  readablePath,
  companyAuditSource,
  mayEditAccess,
  reportRowState,
  seatCountsText,
} from './companies';

const NOW = Date.parse('2027-01-10T12:00:00Z');
const licence = (over: Partial<Parameters<typeof licenceStatus>[0]> = {}) => ({
  fechaVencimiento: '2027-06-30T23:59:59.000Z',
  vencida: false,
  excedidos: 0,
  ...over,
});

describe('company rules', () => {
  it('labels the roles in Spanish', () => {
    expect(['propietario', 'administrador', 'miembro'].map(companyRoleLabel)).toEqual([
      'Propietario',
      'Administrador',
      'Miembro',
    ]);
  });

  it("offers 'Propietario' only to an owner or a platform administrator", () => {
    expect(grantableRoles({ platform: false, role: 'administrador' })).toEqual(['administrador', 'miembro']);
    expect(grantableRoles({ platform: false, role: 'propietario' })).toContain('propietario');
    expect(grantableRoles({ platform: true, role: null })).toContain('propietario');
    expect(mayManageMember({ platform: false, role: 'administrador' }, { rol: 'propietario' })).toBe(false);
    expect(mayManageMember({ platform: false, role: 'administrador' }, { rol: 'miembro' })).toBe(true);
    expect(mayManageMember({ platform: false, role: 'propietario' }, { rol: 'propietario' })).toBe(true);
  });

  it('keeps licence selling and domain confirmation for the platform', () => {
    expect(platformActions({ platform: false, role: 'propietario' })).toEqual({
      sellLicences: false,
      confirmDomains: false,
    });
    expect(platformActions({ platform: true, role: null })).toEqual({ sellLicences: true, confirmDomains: true });
  });

  it('counts the companies a person manages: active owners and administrators only', () => {
    const user = {
      role: 2,
      empresas: [
        { id: 1, nombre: 'A', rol: 'propietario', estado: 'activo' },
        { id: 2, nombre: 'B', rol: 'miembro', estado: 'activo' },
        { id: 3, nombre: 'C', rol: 'administrador', estado: 'pendiente' },
        { id: 4, nombre: 'D', rol: 'administrador', estado: 'activo' },
      ],
    };
    expect(managedCompanies(user).map((c) => c.id)).toEqual([1, 4]);
    expect(managedCompanies({ role: 2 })).toEqual([]);
    expect(mayOpenCompany(user, 4)).toBe(true);
    expect(mayOpenCompany(user, 2)).toBe(false);
    expect(mayOpenCompany({ role: 1 }, 99)).toBe(true);
  });

  it('says the seats in use, free and over', () => {
    expect(seatCountsText({ puestos: 5, enUso: 3, libres: 2, excedidos: 0 })).toBe('3 de 5 en uso · 2 libres');
    expect(seatCountsText({ puestos: 3, enUso: 3, libres: 0, excedidos: 0 })).toBe('3 de 3 en uso · 0 libres');
    expect(seatCountsText({ puestos: 2, enUso: 3, libres: 0, excedidos: 1 })).toBe(
      '3 de 2 en uso · 0 libres · 1 asignado de más',
    );
  });

  it("reads a licence's expiry: expired, within 30 days, or later", () => {
    expect(licenceStatus(licence({ vencida: true, fechaVencimiento: '2027-01-01T23:59:59Z' }), NOW)).toEqual({
      text: 'Vencida el 1/1/2027',
      tone: 'expired',
    });
    expect(licenceStatus(licence({ fechaVencimiento: '2027-01-20T23:59:59Z' }), NOW)).toEqual({
      text: 'Vence el 20/1/2027 (en 11 días)',
      tone: 'warning',
    });
    expect(licenceStatus(licence({ fechaVencimiento: '2027-01-11T10:00:00Z' }), NOW).text).toBe(
      'Vence el 11/1/2027 (mañana)',
    );
    expect(licenceStatus(licence(), NOW)).toEqual({ text: 'Vence el 30/6/2027', tone: 'ok' });
    expect(licenceStatus(licence({ excedidos: 2 }), NOW).tone).toBe('warning');
  });

  it("reads a report row's state with the API's flags", () => {
    expect(reportRowState({ vencida: true, vencePronto: false })).toBe('Vencida');
    expect(reportRowState({ vencida: false, vencePronto: true })).toBe('Vence pronto');
    expect(reportRowState({ vencida: false, vencePronto: false })).toBe('Vigente');
  });

  it('turns the date field into the end of that day and back', () => {
    expect(expiryFromDay('2027-03-31')).toBe('2027-03-31T23:59:59.000Z');
    expect(dayFromExpiry('2027-03-31T23:59:59.000Z')).toBe('2027-03-31');
  });

  it('refuses a licence form before sending: app, plan, seats 1 to 100 000, a day', () => {
    const ok = { idApp: 1, idPlan: 2, puestos: '25', day: '2027-12-31' };
    expect(licenceProblem(ok)).toBeNull();
    expect(licenceProblem({ ...ok, idApp: 0 })).toBe('Elige la app');
    expect(licenceProblem({ ...ok, idPlan: 0 })).toBe('Elige el plan');
    expect(licenceProblem({ ...ok, puestos: '0' })).toMatch(/entre 1 y 100 000/);
    expect(licenceProblem({ ...ok, puestos: '2.5' })).toMatch(/entero/);
    expect(licenceProblem({ ...ok, day: '' })).toBe('Elige la fecha de vencimiento');
  });
});

describe('companyAuditDetails', () => {
  const appName = (id: number) => (id === 1 ? 'Control Max 360' : `app n.º ${id}`);
  it('reads each company action in Spanish, never the JSON and its internal keys', () => {
    expect(companyAuditDetails('company.create', { nombre: 'Minera Andina S.A.' }, appName)).toBe('Minera Andina S.A.');
    expect(companyAuditDetails('company.status_change', { de: 'activa', a: 'suspendida' }, appName)).toBe(
      'Activa → Suspendida',
    );
    expect(
      companyAuditDetails(
        'company.invitation_create',
        { invitationId: 5, email: 'ana@minera.pe', role: 'administrador' },
        appName,
      ),
    ).toBe('ana@minera.pe · Administrador');
    expect(
      companyAuditDetails(
        'company.member_role_change',
        { userId: 3, email: 'ana@minera.pe', from: 'miembro', to: 'propietario' },
        appName,
      ),
    ).toBe('ana@minera.pe: Miembro → Propietario');
    expect(
      companyAuditDetails(
        'auth.sign_in_refused',
        { motivo: 'red', metodo: 'contrasena', address: '203.0.113.9' },
        appName,
      ),
    ).toBe('Fuera de las redes permitidas: 203.0.113.9 · Contraseña');
    expect(
      companyAuditDetails(
        'auth.sign_in_refused',
        { motivo: 'metodo', metodo: 'google', address: '203.0.113.9' },
        appName,
      ),
    ).toBe('Método no permitido: Google · desde 203.0.113.9');
    expect(
      companyAuditDetails('company.scim_token_refused', { prefijo: 'scim_abcdefg', address: '203.0.113.9' }, appName),
    ).toBe('Token scim_abcdefg… · desde 203.0.113.9');
    expect(companyAuditDetails('company.seat_assign', { userId: 4, appId: 1 }, appName)).toBe(
      'Control Max 360 · usuario n.º 4',
    );
    expect(
      companyAuditDetails(
        'company.licence_create',
        { licenceId: 1, appId: 1, planId: 2, puestos: 3, fechaVencimiento: '2027-06-30T23:59:59.000Z' },
        appName,
      ),
    ).toBe('Control Max 360 · 3 puestos · Vence el 30/6/2027');
    expect(
      companyAuditDetails(
        'company.settings_change',
        {
          altaPorDominio: { de: 'automatica', a: 'aprobacion' },
          exigirSegundoFactor: { de: false, a: true },
          permitirDispositivosConfiables: { de: true, a: false },
          confiarSegundoFactorDelProveedor: { de: false, a: true },
        },
        appName,
      ),
    ).toBe(
      'Alta por dominio: automática → con aprobación · Exigir segundo factor: no → sí · ' +
        'Permitir dispositivos de confianza: sí → no · Confiar en el segundo factor del proveedor de la empresa: no → sí',
    );
    expect(companyAuditDetails('company.domain_verify', { domain: 'minera.pe', by: 'dns' }, appName)).toBe(
      'minera.pe · probado por DNS',
    );
    expect(companyAuditDetails('user.create', {}, appName)).toBeNull();
  });

  it('reads what a setup link did: the link, the action in Spanish, the domain and the address it came from', () => {
    expect(
      companyAuditDetails(
        'company.setup_link_use',
        { enlaceId: 7, accion: 'dominio_comprobado', direccion: '203.0.113.9', domain: 'minera.pe' },
        appName,
      ),
    ).toBe('enlace n.º 7 · dominio comprobado · minera.pe · desde 203.0.113.9');
    expect(companyAuditDetails('company.setup_link_create', { enlaceId: 3, horas: 24 }, appName)).toBe('enlace n.º 3');
    expect(companyAuditDetails('company.setup_link_use', { enlaceId: 3, accion: 'otra' }, appName)).toBe(
      'enlace n.º 3',
    );
  });
});

describe("the company's own sign-in and directory", () => {
  it('only owners and the platform change them; a company administrator reads', () => {
    expect(mayEditAccess({ platform: true, role: null })).toBe(true);
    expect(mayEditAccess({ platform: false, role: 'propietario' })).toBe(true);
    expect(mayEditAccess({ platform: false, role: 'administrador' })).toBe(false);
  });

  it("says where an audit entry came from, as the API's `origen` names it", () => {
    const source = (origen: string) => companyAuditSource({ origen, details: {} });
    expect(source('scim')).toBe('SCIM');
    expect(source('proveedor')).toBe('Proveedor de la empresa');
    expect(source('administrador')).toBe('Administrador de la empresa');
    expect(source('plataforma')).toBe('Plataforma');
    expect(source('persona')).toBe('La propia persona');
    expect(source('consola')).toBe('Consola del operador');
    expect(source('sistema')).toBe('El propio portal');
    expect(source('enlace')).toBe('Enlace de configuración');
    // An API without `origen`: the change's own `fuente`, else an administrator's.
    expect(companyAuditSource({ details: { fuente: 'scim' } })).toBe('SCIM');
    expect(companyAuditSource({ details: {} })).toBe('Administrador de la empresa');
  });

  it('reads the details of the new actions in one line, never the secret', () => {
    const appName = (id: number) => `App ${id}`;
    expect(
      companyAuditDetails(
        'company.provider_update',
        {
          issuer: 'https://login.minera.pe',
          clientId: 'x',
          dominios: ['minera.pe', 'andina.pe'],
          permitirContrasena: true,
        },
        appName,
      ),
    ).toBe('https://login.minera.pe · minera.pe, andina.pe · también con contraseña');
    expect(
      companyAuditDetails('company.member_provision', { fuente: 'scim', userName: 'ana@minera.pe' }, appName),
    ).toBe('ana@minera.pe');
    expect(companyAuditDetails('company.scim_token_revoke', { prefijo: 'scim_abcdefg' }, appName)).toBe(
      'token scim_abcdefg…',
    );
  });
});

describe('readablePath', () => {
  it('shows a logged filter with its quotes and spaces', () => {
    expect(readablePath('/scim/v2/Users?filter=userName%20eq%20%22ana%40minera.pe%22&count=1')).toBe(
      '/scim/v2/Users?filter=userName eq "ana@minera.pe"&count=1',
    );
    expect(readablePath('/scim/v2/Users?filter=userName+eq+%22x%22')).toBe('/scim/v2/Users?filter=userName eq "x"');
  });

  it('leaves a path that is not valid percent-encoding as it was logged', () => {
    expect(readablePath('/scim/v2/Users?filter=%E0%A4%A')).toBe('/scim/v2/Users?filter=%E0%A4%A');
  });

  it("says when a SAML provider's certificate ends, and warns within 30 days and once it has ended", () => {
    expect(certificateStatus('2027-06-30T12:00:00Z', NOW)).toEqual({ text: 'Vence el 30/6/2027', tone: 'ok' });
    expect(certificateStatus('2027-02-10T12:00:00Z', NOW)).toEqual({ text: 'Vence el 10/2/2027', tone: 'ok' });
    expect(certificateStatus('2027-02-09T12:00:00Z', NOW)).toEqual({
      text: 'Vence el 9/2/2027 (en 30 días)',
      tone: 'warning',
    });
    expect(certificateStatus('2027-01-11T11:00:00Z', NOW)).toEqual({
      text: 'Vence el 11/1/2027 (mañana)',
      tone: 'warning',
    });
    expect(certificateStatus('2027-01-10T23:00:00Z', NOW)).toEqual({
      text: 'Vence el 10/1/2027 (hoy)',
      tone: 'warning',
    });
    expect(certificateStatus('2027-01-10T11:59:59Z', NOW)).toEqual({ text: 'Venció el 10/1/2027', tone: 'expired' });
  });
});
