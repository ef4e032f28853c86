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
 * Spec §2's finish button. Whoever sees the presentation is signed in already, so step 3 says what the button does for
 * an account that exists: it starts with the free account (docs/decisions/0031-presentation.md).
 */
export const FINISH_LABEL = 'Crear cuenta gratuita';
export const FINISH_NOTE = `Tu cuenta ya está creada: con «${FINISH_LABEL}» empiezas con la Cuenta Gratis, sin costo.`;

export const STEP_TITLES: Record<number, string> = {
  1: 'Te damos la bienvenida a C+Suite',
  2: 'Nuestras Aplicaciones',
  3: 'Elige un plan para continuar',
};
