// 'Acceso de la empresa' by SAML 2.0, as a company's owner, a platform administrator and a company administrator see
// it: the protocol to choose, what the company's IT enters in its identity provider (each value with 'Copiar'), the
// metadata pasted or loaded from its file, the body the API receives and its Spanish refusal said as it came, and the
// connection as it stands (the provider's entity ID, sign-in address, certificates and their end, warned about); or,
// instead of the XML, the address the API reads the metadata from, shown once connected.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import CompanyPage from './CompanyPage';
import { adminUser, bodiesTo, type FakeApi, renderAt, useFakeApi } from '../../testing/setup';
import { company } from '../../testing/companies';
import type { CompanyProvider, CompanySamlConnection } from '../../api/company-types';

jest.setTimeout(30_000);

let api: FakeApi;
afterEach(() => api?.close());

const DAY = 86_400_000;
const day = (instant: string) => new Date(instant).toLocaleDateString('es-ES', { timeZone: 'UTC' });
const inDays = (n: number) => new Date(Date.now() + n * DAY).toISOString();

const SP = {
  entityId: 'https://api.portal.test/saml/empresas/4',
  acsUrl: 'https://api.portal.test/saml/empresas/4/acs',
  metadataUrl: 'https://api.portal.test/saml/empresas/4/metadata',
};

/** An AD FS federation metadata document, as its IT exports it (shortened). */
const ADFS_METADATA = `<?xml version="1.0" encoding="utf-8"?>
<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="http://adfs.minera.pe/adfs/services/trust">
  <IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://adfs.minera.pe/adfs/ls/"/>
  </IDPSSODescriptor>
</EntityDescriptor>`;

const FINGERPRINT_A = 'AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89';
const FINGERPRINT_B = '10:32:54:76:98:BA:DC:FE:10:32:54:76:98:BA:DC:FE:10:32:54:76:98:BA:DC:FE:10:32:54:76:98:BA:DC:FE';

const samlConnection = (over: Partial<CompanySamlConnection> = {}): CompanySamlConnection => ({
  tipo: 'saml',
  dominios: ['minera.pe'],
  permitirContrasena: true,
  ...SP,
  idp: {
    entityId: 'http://adfs.minera.pe/adfs/services/trust',
    ssoUrl: 'https://adfs.minera.pe/adfs/ls/',
    certificados: [{ huella: FINGERPRINT_A, venceEn: inDays(400) }],
    urlMetadatos: null,
  },
  ultimoError: null,
  ultimoErrorEn: null,
  ultimoAcceso: null,
  actualizado: '2027-02-01T10:00:00.000Z',
  ...over,
});

const oidcConnection: CompanyProvider & { tipo: 'oidc' } = {
  tipo: 'oidc',
  issuer: 'https://login.minera.pe',
  clientId: 'portal-minera',
  dominios: ['minera.pe'],
  permitirContrasena: true,
  redirectUri: 'https://api.portal.test/auth/empresa/callback',
  ultimoError: null,
  ultimoErrorEn: null,
  ultimoAcceso: null,
  actualizado: '2027-02-01T10:00:00.000Z',
};

const domains = [
  {
    dominio: 'minera.pe',
    verificado: true,
    verificadoPor: 'dns',
    registroTxt: { nombre: '_portal-verificacion.minera.pe', valor: 'a' },
  },
];

const manager = (rol: 'propietario' | 'administrador') =>
  adminUser({
    role: 2,
    email: 'jefa@minera.pe',
    ...({ empresas: [{ id: 4, nombre: 'Minera Andina S.A.', rol, estado: 'activo' }] } as object),
  });

const noProvider = {
  status: 404,
  body: { statusCode: 404, code: 'SIN_PROVEEDOR', message: 'La empresa no tiene proveedor de identidad' },
};

const base = (over: Record<string, unknown> = {}) => ({
  'GET /empresas/4': { status: 200, body: company() },
  'GET /empresas/4/licencias': { status: 200, body: [] },
  'GET /empresas/4/miembros': { status: 200, body: { data: [], total: 0, siguiente: null } },
  'GET /empresas/4/dominios': { status: 200, body: domains },
  'GET /empresas/4/proveedor': noProvider,
  'GET /empresas/4/proveedor/redireccion': {
    status: 200,
    body: { redirectUri: 'https://api.portal.test/auth/empresa/callback', saml: SP },
  },
  ...over,
});

async function openAccess(user: ReturnType<typeof userEvent.setup>) {
  renderAt('/admin/empresas/4', <CompanyPage />, { pattern: '/admin/empresas/:id' });
  await user.click(await screen.findByRole('tab', { name: 'Acceso de la empresa' }));
}

/** A list of facts by its name (a form may carry the same name). */
const factsOf = (name: string) => {
  const list = screen.getAllByLabelText(name).find((element) => element.tagName === 'DL');
  if (!list) throw new Error(`No hay datos «${name}»`);
  return list;
};
const puts = (path: string) => bodiesTo(api, path).filter(Boolean);

describe("A company's own sign-in by SAML 2.0", () => {
  it("an owner chooses SAML, copies what IT needs, loads the provider's metadata file and saves the right body", async () => {
    const user = userEvent.setup();
    let connected: CompanySamlConnection | null = null;
    api = await useFakeApi(
      base({
        'GET /empresas/4': { status: 200, body: company({ miRol: 'propietario' }) },
        'GET /empresas/4/proveedor': () => (connected ? { status: 200, body: connected } : noProvider),
        'PUT /empresas/4/proveedor': () => {
          connected = samlConnection({ permitirContrasena: false });
          return { status: 200, body: SP };
        },
      }),
      manager('propietario'),
    );
    await openAccess(user);
    expect(await screen.findByText('La empresa aún no ha conectado su proveedor de identidad.')).toBeInTheDocument();
    // OpenID Connect until another protocol is chosen: today's form and redirect address.
    const oidc = await screen.findByRole('radio', { name: 'OpenID Connect' });
    expect(oidc).toBeChecked();
    expect(screen.getByLabelText('Emisor (issuer)')).toBeInTheDocument();
    expect(screen.queryByText(SP.acsUrl)).not.toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'SAML 2.0' }));
    expect(screen.queryByLabelText('Emisor (issuer)')).not.toBeInTheDocument();
    expect(screen.queryByText('https://api.portal.test/auth/empresa/callback')).not.toBeInTheDocument();
    // Before anything is connected: the three values the company's IT enters in its provider, each with 'Copiar'.
    const values = screen.getByLabelText('Datos para el proveedor de la empresa');
    expect(
      within(values).getByText(
        'Crea en el proveedor de la empresa (AD FS, Entra ID, Okta…) una aplicación SAML con estos datos, o importa la URL de metadatos; después pega aquí los metadatos que exporta, o indica la URL donde los publica.',
      ),
    ).toBeInTheDocument();
    expect(within(values).getByText(SP.entityId)).toBeInTheDocument();
    expect(within(values).getByText(SP.acsUrl)).toBeInTheDocument();
    expect(within(values).getByText(SP.metadataUrl)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copiar URL de respuesta (ACS)' }));
    await expect(navigator.clipboard.readText()).resolves.toBe(SP.acsUrl);
    await user.click(screen.getByRole('button', { name: 'Copiar Identificador (Entity ID)' }));
    await expect(navigator.clipboard.readText()).resolves.toBe(SP.entityId);
    await user.click(screen.getByRole('button', { name: 'Copiar URL de metadatos' }));
    await expect(navigator.clipboard.readText()).resolves.toBe(SP.metadataUrl);

    // Nothing is sent without the metadata the first time; the only proved domain is ticked already.
    expect(screen.getByLabelText('minera.pe')).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(
      await screen.findByText('Pega o carga los metadatos del proveedor (XML), o indica su URL de metadatos'),
    ).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'PUT')).toEqual([]);

    // The file AD FS exported fills the field, to be read before saving.
    await user.upload(
      screen.getByLabelText('Cargar archivo XML'),
      new File([ADFS_METADATA], 'FederationMetadata.xml', { type: 'application/xml' }),
    );
    await waitFor(() => expect(screen.getByLabelText('Metadatos del proveedor (XML)')).toHaveValue(ADFS_METADATA));
    expect(screen.getByText('Cargado: FederationMetadata.xml. Revisa el XML antes de guardar.')).toBeInTheDocument();
    await user.click(screen.getByLabelText('Permitir también la contraseña del portal'));
    await user.click(screen.getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Acceso de la empresa guardado')).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'PUT').map((r) => r.path)).toEqual(['/empresas/4/proveedor']);
    expect(puts('/empresas/4/proveedor')).toEqual([
      { tipo: 'saml', metadata: ADFS_METADATA, dominios: ['minera.pe'], permitirContrasena: false },
    ]);
    // Connected: the provider as its metadata says, and the values still there to copy.
    expect(await screen.findByText('http://adfs.minera.pe/adfs/services/trust')).toBeInTheDocument();
    expect(screen.getByText('Solo con el proveedor de la empresa')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'SAML 2.0' })).toBeChecked();
    expect(screen.getByText(SP.acsUrl)).toBeInTheDocument();
    expect(
      screen.getByText(
        'Vacío, como la URL: se mantienen los metadatos guardados (y su URL, si la tiene). Pega los nuevos cuando el proveedor cambie su certificado.',
      ),
    ).toBeInTheDocument();
  });

  it("says the API's refusal of the metadata as the API words it, and keeps what was typed", async () => {
    const user = userEvent.setup();
    const refusal = 'Los metadatos no describen un proveedor de identidad SAML (falta IDPSSODescriptor).';
    api = await useFakeApi(
      base({
        'GET /empresas/4': { status: 200, body: company({ miRol: 'propietario' }) },
        'PUT /empresas/4/proveedor': {
          status: 400,
          body: { statusCode: 400, code: 'METADATOS_INVALIDOS', message: refusal },
        },
      }),
      manager('propietario'),
    );
    await openAccess(user);
    await user.click(await screen.findByRole('radio', { name: 'SAML 2.0' }));
    await user.click(screen.getByLabelText('Metadatos del proveedor (XML)'));
    await user.paste('<EntityDescriptor entityID="x"/>');
    expect(screen.getByLabelText('minera.pe')).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.getByLabelText('Metadatos del proveedor (XML)')).toHaveValue('<EntityDescriptor entityID="x"/>');
    expect(puts('/empresas/4/proveedor')).toEqual([
      { tipo: 'saml', metadata: '<EntityDescriptor entityID="x"/>', dominios: ['minera.pe'], permitirContrasena: true },
    ]);
  });

  it('a platform administrator reads the provider, its certificates and their end, and saves without new metadata', async () => {
    const user = userEvent.setup();
    const soon = inDays(12);
    api = await useFakeApi(
      base({
        'GET /empresas/4/proveedor': {
          status: 200,
          body: samlConnection({
            idp: {
              entityId: 'http://adfs.minera.pe/adfs/services/trust',
              ssoUrl: 'https://adfs.minera.pe/adfs/ls/',
              certificados: [
                { huella: FINGERPRINT_A, venceEn: inDays(400) },
                { huella: FINGERPRINT_B, venceEn: soon },
              ],
              urlMetadatos: null,
            },
            ultimoAcceso: '2027-02-03T08:00:00.000Z',
            ultimoError: 'La firma de la respuesta no es de un certificado de los metadatos de la empresa',
            ultimoErrorEn: '2027-02-02T09:30:00.000Z',
          }),
        },
        'PUT /admin/empresas/4/proveedor': { status: 200, body: SP },
      }),
    );
    await openAccess(user);
    expect(await screen.findByText('https://adfs.minera.pe/adfs/ls/')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'SAML 2.0' })).toBeChecked();
    const facts = factsOf('Proveedor de identidad');
    expect(within(facts).getByText('SAML 2.0')).toBeInTheDocument();
    expect(within(facts).getByText('http://adfs.minera.pe/adfs/services/trust')).toBeInTheDocument();
    const certificates = within(facts).getAllByRole('listitem');
    expect(certificates.map((item) => item.getAttribute('aria-label'))).toEqual(['Certificado 1', 'Certificado 2']);
    expect(within(certificates[0]!).getByText(FINGERPRINT_A)).toBeInTheDocument();
    expect(within(certificates[0]!).getByText(`Vence el ${day(inDays(400))}`)).toBeInTheDocument();
    expect(within(certificates[1]!).getByText(FINGERPRINT_B)).toBeInTheDocument();
    expect(within(certificates[1]!).getByText(`Vence el ${day(soon)} (en 12 días)`)).toBeInTheDocument();
    // The one that ends soon is said aloud, with what to do.
    expect(
      screen.getByText(
        `Un certificado del proveedor vence el ${day(soon)} (en 12 días). Cuando la TI de la empresa lo renueve, guarda aquí sus metadatos actualizados para que nadie se quede sin entrar.`,
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        `Último error (${new Date('2027-02-02T09:30:00.000Z').toLocaleString('es-ES')}): La firma de la respuesta no es de un certificado de los metadatos de la empresa`,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(new Date('2027-02-03T08:00:00.000Z').toLocaleString('es-ES'))).toBeInTheDocument();
    // The service provider's values come from the connection itself; no metadata address when it was pasted.
    expect(screen.getByText(SP.metadataUrl)).toBeInTheDocument();
    expect(within(facts).queryByText('URL de metadatos del proveedor')).not.toBeInTheDocument();

    // A change of the domains alone: the saved metadata stays (none sent), the typed domains are proved by the call.
    expect(screen.getByLabelText('minera.pe')).toBeChecked();
    await user.type(screen.getByLabelText('Otros dominios (separados por comas)'), 'Cobre.pe');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Acceso de la empresa guardado')).toBeInTheDocument();
    expect(puts('/admin/empresas/4/proveedor')).toEqual([
      { tipo: 'saml', dominios: ['minera.pe', 'cobre.pe'], permitirContrasena: true },
    ]);
    expect(puts('/empresas/4/proveedor')).toEqual([]);

    // Back to OpenID Connect: it would replace the SAML connection, and needs its secret as a first connection.
    await user.click(screen.getByRole('radio', { name: 'OpenID Connect' }));
    expect(
      screen.getByText('Al guardar, este acceso sustituye al de SAML 2.0 que la empresa tiene ahora.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Emisor (issuer)')).toHaveValue('');
    expect(screen.queryByText('Vacío: se mantiene el actual.')).not.toBeInTheDocument();
    expect(screen.getByText('https://api.portal.test/auth/empresa/callback')).toBeInTheDocument();
    expect(screen.queryByText(SP.acsUrl)).not.toBeInTheDocument();
  });

  it("connects by the provider's metadata address instead of the XML: one or the other, and the address shown after", async () => {
    const user = userEvent.setup();
    const address = 'https://login.microsoftonline.com/inquilino/federationmetadata/2007-06/federationmetadata.xml';
    let connected: CompanySamlConnection | null = null;
    api = await useFakeApi(
      base({
        'GET /empresas/4': { status: 200, body: company({ miRol: 'propietario' }) },
        'GET /empresas/4/proveedor': () => (connected ? { status: 200, body: connected } : noProvider),
        'PUT /empresas/4/proveedor': () => {
          connected = samlConnection({
            idp: {
              entityId: 'https://sts.windows.net/inquilino/',
              ssoUrl: 'https://login.microsoftonline.com/inquilino/saml2',
              certificados: [{ huella: FINGERPRINT_A, venceEn: inDays(400) }],
              urlMetadatos: address,
            },
          });
          return { status: 200, body: SP };
        },
      }),
      manager('propietario'),
    );
    await openAccess(user);
    await user.click(await screen.findByRole('radio', { name: 'SAML 2.0' }));
    expect(
      screen.getByText(
        'O, en lugar del XML, la dirección https:// de sus metadatos (la de federación de Entra ID o AD FS): el portal los lee al guardar y una vez al día. Uno de los dos, no ambos.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('minera.pe')).toBeChecked();

    // Both: nothing is sent, and the person is told to choose.
    await user.click(screen.getByLabelText('Metadatos del proveedor (XML)'));
    await user.paste(ADFS_METADATA);
    await user.type(screen.getByLabelText('URL de metadatos del proveedor'), address);
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(
      await screen.findByText('Pega el XML o indica la URL de metadatos del proveedor, no los dos'),
    ).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'PUT')).toEqual([]);

    // The address alone.
    await user.clear(screen.getByLabelText('Metadatos del proveedor (XML)'));
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Acceso de la empresa guardado')).toBeInTheDocument();
    expect(puts('/empresas/4/proveedor')).toEqual([
      { tipo: 'saml', urlMetadatos: address, dominios: ['minera.pe'], permitirContrasena: true },
    ]);
    expect(await screen.findByText('https://sts.windows.net/inquilino/')).toBeInTheDocument();
    const facts = factsOf('Proveedor de identidad');
    expect(within(facts).getByText(address)).toBeInTheDocument();
    expect(within(facts).getByText('URL de metadatos del proveedor')).toBeInTheDocument();
  });

  it("says the API's refusal of the metadata address as the API words it", async () => {
    const user = userEvent.setup();
    const refusal =
      'No se pudieron leer los metadatos del proveedor en https://adfs.minera.pe/federationmetadata.xml (respondió 404).';
    api = await useFakeApi(
      base({
        'GET /empresas/4': { status: 200, body: company({ miRol: 'propietario' }) },
        'PUT /empresas/4/proveedor': {
          status: 400,
          body: { statusCode: 400, code: 'PROVEEDOR_INALCANZABLE', message: refusal },
        },
      }),
      manager('propietario'),
    );
    await openAccess(user);
    await user.click(await screen.findByRole('radio', { name: 'SAML 2.0' }));
    await user.type(
      screen.getByLabelText('URL de metadatos del proveedor'),
      '  https://adfs.minera.pe/federationmetadata.xml ',
    );
    expect(screen.getByLabelText('minera.pe')).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(puts('/empresas/4/proveedor')).toEqual([
      {
        tipo: 'saml',
        urlMetadatos: 'https://adfs.minera.pe/federationmetadata.xml',
        dominios: ['minera.pe'],
        permitirContrasena: true,
      },
    ]);
  });

  it('warns when a certificate of the provider has ended', async () => {
    const user = userEvent.setup();
    const ended = inDays(-3);
    api = await useFakeApi(
      base({
        'GET /empresas/4/proveedor': {
          status: 200,
          body: samlConnection({
            idp: {
              entityId: 'https://sts.windows.net/inquilino/',
              ssoUrl: 'https://login.microsoftonline.com/inquilino/saml2',
              certificados: [{ huella: FINGERPRINT_A, venceEn: ended }],
              urlMetadatos: null,
            },
          }),
        },
      }),
    );
    await openAccess(user);
    const certificate = await screen.findByRole('listitem', { name: 'Certificado 1' });
    expect(within(certificate).getByText(`Venció el ${day(ended)}`)).toBeInTheDocument();
    expect(
      screen.getByText(
        `Un certificado del proveedor venció el ${day(ended)}. Si el proveedor sigue firmando con él, nadie podrá entrar por este acceso: pide a la TI de la empresa el certificado nuevo y guarda aquí sus metadatos actualizados.`,
      ),
    ).toBeInTheDocument();
    // Said as a notice: the keyboard stays where it was, not taken by the page's arrival.
    expect(screen.getByRole('tab', { name: 'Acceso de la empresa' })).toHaveFocus();
  });

  it('a company connected by OpenID Connect is told that SAML replaces it on saving', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4': { status: 200, body: company({ miRol: 'propietario' }) },
        'GET /empresas/4/proveedor': { status: 200, body: oidcConnection },
      }),
      manager('propietario'),
    );
    await openAccess(user);
    expect(await screen.findByText('https://login.minera.pe')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'OpenID Connect' })).toBeChecked();
    expect(screen.queryByText(/^Al guardar, este acceso sustituye/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'SAML 2.0' }));
    expect(
      screen.getByText('Al guardar, este acceso sustituye al de OpenID Connect que la empresa tiene ahora.'),
    ).toBeInTheDocument();
    // The first SAML connection needs its metadata; the domains stay those of the connection it replaces.
    expect(
      screen.getByText('Pega el XML de metadatos que exporta el proveedor de la empresa, o carga su archivo.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('minera.pe')).toBeChecked();
    // The connection in force is still the one shown.
    expect(screen.getByText('https://login.minera.pe')).toBeInTheDocument();
  });

  it('before anything is connected: the protocol chosen shows as chosen, the only proved domain is ticked and stays so', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4': { status: 200, body: company({ miRol: 'propietario' }) },
        'PUT /empresas/4/proveedor': { status: 200, body: SP },
      }),
      manager('propietario'),
    );
    await openAccess(user);
    const oidc = await screen.findByRole('radio', { name: 'OpenID Connect' });
    const saml = screen.getByRole('radio', { name: 'SAML 2.0' });
    expect(oidc).toBeChecked();
    expect(saml).not.toBeChecked();
    expect(screen.getByLabelText('minera.pe')).toBeChecked();
    await user.type(screen.getByLabelText('Emisor (issuer)'), 'https://login.minera.pe');

    // Each choice shows as the one chosen; the domain stays ticked and what was typed stays.
    await user.click(saml);
    expect(saml).toBeChecked();
    expect(oidc).not.toBeChecked();
    expect(screen.getByLabelText('minera.pe')).toBeChecked();
    await user.click(oidc);
    expect(oidc).toBeChecked();
    expect(saml).not.toBeChecked();
    expect(screen.getByLabelText('minera.pe')).toBeChecked();
    expect(screen.getByLabelText('Emisor (issuer)')).toHaveValue('https://login.minera.pe');

    // The first 'Guardar' goes through with that domain.
    await user.click(saml);
    await user.click(screen.getByLabelText('Metadatos del proveedor (XML)'));
    await user.paste(ADFS_METADATA);
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Acceso de la empresa guardado')).toBeInTheDocument();
    expect(puts('/empresas/4/proveedor')).toEqual([
      { tipo: 'saml', metadata: ADFS_METADATA, dominios: ['minera.pe'], permitirContrasena: true },
    ]);
  });

  it('a company administrator reads the SAML connection and the values: no protocol to choose, no form', async () => {
    const user = userEvent.setup();
    api = await useFakeApi(
      base({
        'GET /empresas/4': { status: 200, body: company({ miRol: 'administrador' }) },
        'GET /empresas/4/proveedor': { status: 200, body: samlConnection() },
      }),
      manager('administrador'),
    );
    await openAccess(user);
    expect(await screen.findByText('https://adfs.minera.pe/adfs/ls/')).toBeInTheDocument();
    expect(screen.getByText(SP.acsUrl)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copiar URL de respuesta (ACS)' })).toBeInTheDocument();
    expect(screen.queryByText('https://api.portal.test/auth/empresa/callback')).not.toBeInTheDocument();
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Metadatos del proveedor (XML)')).not.toBeInTheDocument();
    expect(screen.getByText('Solo los propietarios de la empresa pueden cambiar esto.')).toBeInTheDocument();
  });
});
