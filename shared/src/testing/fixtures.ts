import type { App, PortalSession, SecurityStatus, User, UserPlan } from '../types/entities';

/** A signed-in ordinary user for component tests; override what a test is about. */
export function user(overrides: Partial<User> = {}): User {
  return {
    id: 7,
    email: 'ana@example.com',
    name: 'Ana',
    lastName: 'Pérez',
    phone: '',
    picture: null,
    role: 2,
    presentacion: false,
    planesUsuarios: [],
    empresas: [],
    status: 'active',
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/**
 * An entry of `planesUsuarios`: the person's own plan in an app, without expiry; `seatOf` makes it a company's seat
 * (`origen: 'empresa'`, the licence's id negated).
 */
export function userPlan(
  app: { id: number; nombre: string },
  plan: string,
  seatOf: { id: number; nombre: string } | null = null,
): UserPlan {
  return {
    id: seatOf ? -app.id : app.id,
    plan: { nombre: plan, descripcion: '' },
    app,
    fechaVencimiento: null,
    origen: seatOf ? 'empresa' : 'propio',
    empresa: seatOf,
  };
}

/** An app of the catalogue, on the web and on mobile unless overridden. */
export function app(id: number, nombre: string, overrides: Partial<App> = {}): App {
  return {
    id,
    nombre,
    descripcion: `${nombre}: descripción`,
    longDescription: '',
    iconUrl: null,
    webUrl: `https://app${id}.example.com/inicio`,
    iosUrl: `https://apps.apple.com/app/app${id}`,
    androidUrl: `https://play.google.com/store/apps/details?id=app${id}`,
    isEnabledWeb: true,
    isEnabledMovil: true,
    tags: [],
    ...overrides,
  };
}

/** An open portal session, as `GET /auth/sessions` lists it: 'Chrome en Linux' gives its browser and system. */
export function portalSession(id: string, label: string, overrides: Partial<PortalSession> = {}): PortalSession {
  const [browser = label, os = ''] = label.split(' en ');
  return {
    id,
    device: 'Computadora',
    browser,
    os,
    label,
    address: '198.51.100.7',
    createdAt: '2026-11-20T10:00:00.000Z',
    lastSeenAt: '2026-11-22T18:30:00.000Z',
    current: false,
    app: null,
    ...overrides,
  };
}

/**
 * GET /auth/seguridad's answer for an administrator with no factor yet, under the required default;
 * override what a test is about.
 */
export function securityStatus(overrides: Partial<SecurityStatus> = {}): SecurityStatus {
  return {
    totp: false,
    passkeys: 0,
    recoveryCodesLeft: 0,
    secondFactorRequired: true,
    sessionVerified: false,
    sessionTrustedDevice: false,
    ...overrides,
  };
}
