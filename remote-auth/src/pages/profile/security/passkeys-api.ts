import { API_PATHS, type CeremonyOptions, type Passkey, request } from '@portal/shared';
import { createPasskey } from '../../../passkeys/webauthn';

/** The passkeys of the 'Seguridad' tab (PasskeysSection). */

export const ADD_FAILED = 'No se pudo agregar la llave de acceso';

export function listPasskeys(): Promise<Passkey[]> {
  return request('get', API_PATHS.auth.passkeys, { fallback: 'No se pudieron cargar las llaves de acceso' });
}

/** The server's options, the browser's ceremony (the person confirms on the device), then the new passkey. */
export async function addPasskey(name: string): Promise<Passkey> {
  const { ceremonyId, options } = await request<CeremonyOptions>('post', API_PATHS.auth.passkeyRegistrationOptions, {
    fallback: ADD_FAILED,
  });
  const response = await createPasskey(options);
  return request('post', API_PATHS.auth.passkeys, {
    json: { ceremonyId, name: name.trim(), response },
    fallback: ADD_FAILED,
  });
}

export function deletePasskey(id: string): Promise<void> {
  return request('delete', API_PATHS.auth.passkey(id), { fallback: 'No se pudo eliminar la llave de acceso' });
}
