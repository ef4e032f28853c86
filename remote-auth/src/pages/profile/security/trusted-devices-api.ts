import { API_PATHS, request, type TrustedDevice } from '@portal/shared';

/**
 * The trusted devices of the 'Seguridad' tab (TrustedDevicesSection, docs/decisions/0143-trusted-devices.md). The list
 * sends the browser's cookies, so the API can say which device is this browser.
 */

export function listTrustedDevices(): Promise<TrustedDevice[]> {
  return request('get', API_PATHS.auth.trustedDevices, {
    fallback: 'No se pudieron cargar los dispositivos de confianza',
    credentials: 'include',
  });
}

export function removeTrustedDevice(id: number): Promise<void> {
  return request('delete', API_PATHS.auth.trustedDevice(id), { fallback: 'No se pudo quitar el dispositivo' });
}

export function removeAllTrustedDevices(): Promise<{ quitados: number }> {
  return request('delete', API_PATHS.auth.trustedDevices, { fallback: 'No se pudieron quitar los dispositivos' });
}
