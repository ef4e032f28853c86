/** Spec §9: three steps, a 250 ms slide between them, the highlighted app changes every 2000 ms. */
export const STEP_COUNT = 3;
export const SLIDE_MS = 250;
export const HIGHLIGHT_MS = 2000;

export const PILLS = ['Automatización Avanzada', 'Gestión Inteligente', 'Máxima Eficiencia'] as const;

export const FREE_ACCOUNT = {
  title: 'Cuenta Gratis',
  features: [
    'Software TX30: funciones básicas',
    'Beto Pro: 20 consultas gratuitas',
    'Control Max 360: todos los beneficios',
  ],
};

export const PRO_ACCOUNT = {
  title: 'Cuenta Pro',
  features: ['Beto Pro: consultas ilimitadas'],
};

export const STEP_TITLES: Record<number, string> = {
  1: '¡Bienvenido a C+Suite!',
  2: 'Nuestras Aplicaciones',
  3: 'Elige un plan para continuar',
};
