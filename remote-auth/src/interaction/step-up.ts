import { API_PATHS, type CeremonyOptions, request } from '@portal/shared';
import { signWithPasskey } from '../passkeys/webauthn';
import { trustField } from '../second-factor/trust-device';

/**
 * Step-up (docs/decisions/0137-step-up.md): the signed-in session proves a second factor an app asked for, without a
 * new sign-in. The session stays the same; from then on it counts as one that proved a second factor.
 */

const CODE_FAILED = 'No se pudo verificar el código';
const PASSKEY_FAILED = 'No se pudo verificar la llave de acceso';

/** A 6-digit code of the authenticator app or a recovery code (the spaces typed are taken out). */
export function proveWithCode(code: string, trust = false): Promise<void> {
  return request('post', API_PATHS.auth.proveSecondFactor, {
    json: { code: code.replace(/\s+/g, ''), ...trustField(trust) },
    fallback: CODE_FAILED,
    credentials: 'include',
  });
}

/** One of the account's passkeys, through the browser's dialog. */
export async function proveWithPasskey(trust = false): Promise<void> {
  const { ceremonyId, options } = await request<CeremonyOptions>(
    'post',
    API_PATHS.auth.proveSecondFactorPasskeyOptions,
    { fallback: PASSKEY_FAILED },
  );
  const response = await signWithPasskey(options);
  await request('post', API_PATHS.auth.proveSecondFactorPasskey, {
    json: { ceremonyId, response, ...trustField(trust) },
    fallback: PASSKEY_FAILED,
    credentials: 'include',
  });
}
