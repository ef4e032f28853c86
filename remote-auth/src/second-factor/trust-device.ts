/**
 * 'No volver a pedir en este dispositivo durante 30 días' (docs/decisions/0143-trusted-devices.md): the box of a second
 * step. Ticked, the call asks the API to trust this browser; every second-step call sends and keeps the browser's
 * cookies for the API (`credentials: 'include'`), so the cookie the API sets is kept for the next sign-in.
 */
export const TRUST_DEVICE_LABEL = 'No volver a pedir en este dispositivo durante 30 días';

/** The field a second step's body carries when the box is ticked (nothing otherwise). */
export const trustField = (trust: boolean): { confiarDispositivo?: true } =>
  trust ? { confiarDispositivo: true } : {};
