import type { App, AppWithPlans, User } from '@portal/shared';

export function app(id: number, nombre: string, overrides: Partial<App> = {}): App {
  return {
    id,
    nombre,
    descripcion: `${nombre}: descripción`,
    longDescription: null,
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

/** The seeded catalogue's shape: 1-3 on the web, 1-2 on mobile, 4 the suite (nowhere), 5 the in-portal calculator. */
export const catalogue: App[] = [
  app(1, 'Control Max 360'),
  app(2, 'Beto Pro'),
  app(3, 'TX30', { isEnabledMovil: false, iosUrl: null, androidUrl: null }),
  app(4, 'C+Suite Completa', { isEnabledWeb: false, isEnabledMovil: false, webUrl: null, iosUrl: null, androidUrl: null }),
  app(5, 'Calculadora TXI', { webUrl: '/calculadora-txi', isEnabledMovil: false, iosUrl: null, androidUrl: null }),
];

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

export function withPlans(id: number, nombre: string, pro: { caracteristicas: string[]; precioMensual: number; precioAnual: number }): AppWithPlans {
  return {
    id,
    nombre,
    iconUrl: null,
    descripcion: `${nombre}: descripción`,
    longDescription: `${nombre}: descripción larga`,
    planes: [
      { id: id * 10, nombre: 'free', caracteristicas: [`${nombre} gratis`], precioMensual: 0, precioAnual: 0 },
      { id: id * 10 + 1, nombre: 'PRO', ...pro },
    ],
  };
}
