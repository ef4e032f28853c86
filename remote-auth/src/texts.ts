/** Texts two screens of this remote show. */
export const RESENT = 'Código reenviado exitosamente';
