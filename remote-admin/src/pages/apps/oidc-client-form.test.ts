import type { OidcClient } from '@portal/shared';
import {
  clientToForm,
  emptyOidcClientForm,
  formToClientInput,
  NO_APP,
  type OidcClientForm,
  validateOidcClientForm,
  withScope,
} from './oidc-client-form';

const form = (overrides: Partial<OidcClientForm> = {}): OidcClientForm => ({
  ...emptyOidcClientForm,
  nombre: 'Gestor de Planta',
  redirectUris: 'https://planta.example.com/oidc/callback',
  ...overrides,
});

const client: OidcClient = {
  clientId: 'gestor-de-planta',
  idAplicacion: 3,
  nombre: 'Gestor de Planta',
  redirectUris: ['https://planta.example.com/cb', 'http://localhost:5173/cb'],
  postLogoutRedirectUris: ['https://planta.example.com/'],
  backchannelLogoutUri: null,
  initiateLoginUri: 'https://planta.example.com/login',
  publico: false,
  primeraParte: true,
  appId: 3,
  scopes: ['openid', 'email', 'plan'],
  sujeto: 'numerico',
  dispositivos: true,
  creadoEn: '2026-11-01T10:00:00.000Z',
  actualizadoEn: '2026-11-02T10:00:00.000Z',
};

describe('validateOidcClientForm', () => {
  it('asks for a name and at least one return address', () => {
    expect(validateOidcClientForm(form({ nombre: '  ' }))).toBe('El nombre es requerido');
    expect(validateOidcClientForm(form({ redirectUris: ' \n ' }))).toBe('Escribe al menos una URI de redirección');
    expect(validateOidcClientForm(form())).toBeNull();
  });

  it('lets only a public client that signs in on devices go without a return address, as the server does', () => {
    const deviceOnly = form({ redirectUris: '', dispositivos: true });
    expect(validateOidcClientForm({ ...deviceOnly, tipo: 'publico' })).toBeNull();
    expect(validateOidcClientForm(deviceOnly)).toBe('Escribe al menos una URI de redirección');
    expect(validateOidcClientForm(form({ redirectUris: '', tipo: 'publico' }))).toBe(
      'Escribe al menos una URI de redirección',
    );
    // An address typed is still checked.
    expect(validateOidcClientForm({ ...deviceOnly, tipo: 'publico', redirectUris: 'javascript:x' })).toMatch(
      /^URIs de redirección: «javascript:x»/,
    );
  });

  it("lets only a public client return to the app's own scheme", () => {
    const mobile = form({ redirectUris: 'betopro://auth/callback', postLogoutRedirectUris: 'betopro://auth' });
    expect(validateOidcClientForm({ ...mobile, tipo: 'publico' })).toBeNull();
    expect(validateOidcClientForm(mobile)).toMatch(/^URIs de redirección: «betopro:\/\/auth\/callback»/);
    expect(validateOidcClientForm({ ...mobile, tipo: 'publico', postLogoutRedirectUris: 'javascript:x' })).toMatch(
      /^URIs tras cerrar sesión: «javascript:x»/,
    );
  });

  it('checks the server addresses as web addresses, and only when given', () => {
    expect(validateOidcClientForm(form({ backchannelLogoutUri: 'http://planta.example.com/bc' }))).toMatch(
      /^URI de cierre de sesión por canal trasero:/,
    );
    expect(validateOidcClientForm(form({ tipo: 'publico', initiateLoginUri: 'betopro://login' }))).toMatch(
      /^URI de inicio de sesión iniciado por terceros:/,
    );
    expect(validateOidcClientForm(form({ backchannelLogoutUri: ' ', initiateLoginUri: '' }))).toBeNull();
  });

  it('takes the initiate-login URI over https only, as the server does, even on localhost', () => {
    expect(validateOidcClientForm(form({ initiateLoginUri: 'http://localhost:3000/iniciar' }))).toMatch(
      /^URI de inicio de sesión iniciado por terceros: «http:\/\/localhost:3000\/iniciar» debe ser una dirección https:\/\//,
    );
    expect(validateOidcClientForm(form({ initiateLoginUri: 'https://localhost:8443/iniciar' }))).toBeNull();
  });
});

describe('formToClientInput', () => {
  it('sends every field: lists one per line, blanks as null', () => {
    expect(
      formToClientInput(
        form({
          nombre: ' Gestor de Planta ',
          redirectUris: 'https://a.example.com/cb\n\nhttps://b.example.com/cb\n',
          tipo: 'publico',
          scopes: ['openid', 'email'],
        }),
      ),
    ).toEqual({
      nombre: 'Gestor de Planta',
      redirectUris: ['https://a.example.com/cb', 'https://b.example.com/cb'],
      postLogoutRedirectUris: [],
      backchannelLogoutUri: null,
      initiateLoginUri: null,
      publico: true,
      primeraParte: false,
      appId: null,
      scopes: ['openid', 'email'],
      sujeto: 'opaco',
      dispositivos: false,
    });
  });

  it('sends plan only with an app of the catalogue', () => {
    expect(formToClientInput(form({ scopes: ['openid', 'plan'], appId: NO_APP })).scopes).toEqual(['openid']);
    expect(formToClientInput(form({ scopes: ['openid', 'plan'], appId: 3 }))).toMatchObject({
      appId: 3,
      scopes: ['openid', 'plan'],
    });
  });
});

describe('clientToForm', () => {
  it('shows a client as the form holds it, and sends it back unchanged', () => {
    const shown = clientToForm(client);
    expect(shown).toMatchObject({
      redirectUris: 'https://planta.example.com/cb\nhttp://localhost:5173/cb',
      backchannelLogoutUri: '',
      tipo: 'confidencial',
      appId: 3,
      scopes: ['openid', 'email', 'plan'],
    });
    expect(formToClientInput(shown)).toEqual({
      nombre: client.nombre,
      redirectUris: client.redirectUris,
      postLogoutRedirectUris: client.postLogoutRedirectUris,
      backchannelLogoutUri: null,
      initiateLoginUri: client.initiateLoginUri,
      publico: false,
      primeraParte: true,
      appId: 3,
      scopes: ['openid', 'email', 'plan'],
      sujeto: 'numerico',
      dispositivos: true,
    });
  });
});

it('keeps every scope of a client through the form: roles, organization, and one this panel does not know', () => {
  const scopes = ['openid', 'roles', 'organization', 'acceso_futuro'] as OidcClient['scopes'];
  const shown = clientToForm({ ...client, scopes });
  expect(shown.scopes).toEqual(scopes);
  expect(formToClientInput(shown).scopes).toEqual(scopes);
  expect(withScope(shown.scopes, 'email', true)).toEqual(['openid', 'email', 'roles', 'organization', 'acceso_futuro']);
});

it('withScope ticks and unticks in the form order, never openid', () => {
  expect(withScope(['openid'], 'email', true)).toEqual(['openid', 'email']);
  expect(withScope(['openid', 'email'], 'profile', true)).toEqual(['openid', 'profile', 'email']);
  expect(withScope(['openid', 'profile', 'email'], 'profile', false)).toEqual(['openid', 'email']);
  expect(withScope(['openid'], 'openid', false)).toEqual(['openid']);
});
