import { ApiError } from '@portal/shared';
import { AUTHORIZE_PROBLEMS, authorizationStep, isFollowableRedirect, problemOf, refusalOf } from './authorization';

describe('the problem a motivo names', () => {
  it('maps each motivo of the API to its fixed text', () => {
    expect(problemOf('cliente_desconocido')).toBe('cliente_desconocido');
    expect(problemOf('redireccion_no_registrada')).toBe('redireccion_no_registrada');
    expect(problemOf('solicitud_expirada')).toBe('solicitud_expirada');
    expect(problemOf('error_servidor')).toBe('error_servidor');
    expect(AUTHORIZE_PROBLEMS[problemOf('cliente_desconocido')]).toBe(
      'La aplicación que te envió aquí no está registrada en el portal.',
    );
  });

  it('reads anything else as an invalid request, never as text to show', () => {
    for (const motivo of [null, '', 'otro', 'toString', '__proto__', '<b>Hackeado</b>', 'Solicitud_Expirada'])
      expect(problemOf(motivo)).toBe('solicitud_invalida');
  });
});

describe('what /autorizar does once it knows the interaction and the session', () => {
  const details = (
    consentimiento: boolean,
    reautenticar: boolean,
    segundoFactor: { metodos: ('totp' | 'recovery' | 'passkey')[]; permiteConfiarDispositivo: boolean } | null = null,
  ) => ({ consentimiento, reautenticar, segundoFactor });

  it('signs in first when nobody is signed in, whatever the app asks', () => {
    expect(authorizationStep(details(false, false), false)).toBe('sign-in');
    expect(authorizationStep(details(true, false), false)).toBe('sign-in');
  });

  it('signs in again when the app asked for a fresh sign-in, even a signed-in person', () => {
    expect(authorizationStep(details(false, true), true)).toBe('sign-in');
    expect(authorizationStep(details(true, true), true)).toBe('sign-in');
  });

  it('asks for the second factor the app wants before anything else a signed-in person answers', () => {
    expect(authorizationStep(details(true, false, { metodos: ['totp'], permiteConfiarDispositivo: true }), true)).toBe(
      'second-factor',
    );
    expect(authorizationStep(details(false, false, { metodos: [], permiteConfiarDispositivo: true }), true)).toBe(
      'second-factor',
    );
    expect(authorizationStep(details(false, true, { metodos: ['totp'], permiteConfiarDispositivo: true }), true)).toBe(
      'sign-in',
    );
    expect(
      authorizationStep(details(false, false, { metodos: ['totp'], permiteConfiarDispositivo: true }), false),
    ).toBe('sign-in');
  });

  it('asks for a third-party app not yet allowed, else goes on at once', () => {
    expect(authorizationStep(details(true, false), true)).toBe('consent');
    expect(authorizationStep(details(false, false), true)).toBe('continue');
  });
});

describe('what a refused interaction call means', () => {
  const refusal = (status: number, code?: string) => refusalOf(new ApiError('x', status, code));

  it('tells the known refusals apart', () => {
    expect(refusal(404, 'INTERACTION_NOT_FOUND')).toBe('expired');
    expect(refusal(404)).toBe('expired');
    expect(refusal(409, 'CONSENT_REQUIRED')).toBe('consent');
    expect(refusal(409, 'STEP_UP_REQUIRED')).toBe('second-factor');
    expect(refusal(401, 'SIGN_IN_AGAIN')).toBe('sign-in-again');
    expect(refusal(401)).toBe('session-ended');
    expect(refusal(401, 'INVALID_TOKEN')).toBe('session-ended');
  });

  it('anything else is a failure to show', () => {
    expect(refusal(500)).toBe('other');
    expect(refusal(400, 'VALIDATION')).toBe('other');
    expect(refusalOf(new Error('x'))).toBe('other');
    expect(refusalOf(new ApiError('Sin conexión'))).toBe('other');
  });
});

it('follows only an http(s) answer of the API out of the portal', () => {
  expect(isFollowableRedirect('https://api.portal.example.com/oidc/auth/abc')).toBe(true);
  expect(isFollowableRedirect('http://localhost:3000/oidc/auth/abc')).toBe(true);
  for (const url of ['javascript:alert(1)', 'data:text/html,x', '/relativo', '', 'betopro://auth'])
    expect(isFollowableRedirect(url)).toBe(false);
});
