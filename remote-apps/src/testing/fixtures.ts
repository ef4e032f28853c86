import type { App, AppWithPlans } from '@portal/shared';
import { app } from '@portal/shared/testing/fixtures';

// The shared fixtures, so a test imports everything it needs from one place.
export { app, user, userPlan } from '@portal/shared/testing/fixtures';

/** The seeded catalogue's shape: 1-3 on the web, 1-2 on mobile, 4 the suite (nowhere), 5 the in-portal calculator. */
export const catalogue: App[] = [
  app(1, 'Control Max 360'),
  app(2, 'Beto Pro'),
  app(3, 'TX30', { isEnabledMovil: false, iosUrl: null, androidUrl: null }),
  app(4, 'C+Suite Completa', {
    isEnabledWeb: false,
    isEnabledMovil: false,
    webUrl: null,
    iosUrl: null,
    androidUrl: null,
  }),
  app(5, 'Calculadora TXI', { webUrl: '/calculadora-txi', isEnabledMovil: false, iosUrl: null, androidUrl: null }),
];

export function withPlans(
  id: number,
  nombre: string,
  pro: { caracteristicas: string[]; precioMensual: number; precioAnual: number },
): AppWithPlans {
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
