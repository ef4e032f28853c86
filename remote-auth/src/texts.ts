/** Texts two screens of this remote show. */
export const RESENT = 'Código reenviado exitosamente';

export type SocialProvider = 'google' | 'apple';

export const PROVIDER_NAMES: Record<SocialProvider, string> = { google: 'Google', apple: 'Apple' };

/** A provider this portal has no configuration for: no retry can help (docs/decisions/0072). */
export const providerUnavailable = (provider: SocialProvider) =>
  `El acceso con ${PROVIDER_NAMES[provider]} no está disponible en este portal.`;
