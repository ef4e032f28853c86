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

/**
 * The finish button. Spec §2's 'Crear cuenta gratuita' would ask someone signed in to make the account they are signed
 * in with: the presentation only opens over the apps page of a session, and a new account holds the free plan of every
 * app already, so the button says that the person goes on with it, in the words of step 3's title and first account
 * (docs/decisions/0130-presentation-for-a-signed-in-person.md).
 */
export const FINISH_LABEL = 'Continuar con la Cuenta Gratis';

export const STEP_TITLES: Record<number, string> = {
  1: 'Te damos la bienvenida a C+Suite',
  2: 'Nuestras Aplicaciones',
  3: 'Elige un plan para continuar',
};
