import type { App, User } from '@portal/shared';

export function app(id: number, nombre: string, overrides: Partial<App> = {}): App {
  return {
    id,
    nombre,
    descripcion: null,
    longDescription: null,
    iconUrl: null,
    webUrl: `https://app${id}.example.com`,
    iosUrl: null,
    androidUrl: null,
    isEnabledWeb: true,
    isEnabledMovil: false,
    tags: [],
    ...overrides,
  };
}

export function user(overrides: Partial<User> = {}): User {
  return {
    id: 7,
    email: 'ana@example.com',
    name: 'Ana',
    lastName: 'Pérez',
    phone: null,
    picture: null,
    role: 2,
    presentacion: false,
    planesUsuarios: [],
    status: 'active',
    createdAt: null,
    ...overrides,
  };
}
