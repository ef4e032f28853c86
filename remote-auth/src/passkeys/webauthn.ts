import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { lazyModule } from '../lazy-module';

/**
 * The browser's WebAuthn calls, through @simplewebauthn/browser loaded only when a page asks: /login's first
 * JavaScript does not carry it.
 */
type WebAuthnLibrary = typeof import('@simplewebauthn/browser');

const library = lazyModule<WebAuthnLibrary>(() => import('@simplewebauthn/browser'));
const load = library.load;

/** Whether this browser can create and use passkeys (false if the library cannot even be loaded). */
export async function supportsPasskeys(): Promise<boolean> {
  try {
    return (await load()).browserSupportsWebAuthn();
  } catch {
    return false;
  }
}

/** Whether the browser offers passkeys among the email field's suggestions (a conditional ceremony). */
export async function supportsPasskeyAutofill(): Promise<boolean> {
  try {
    return await (await load()).browserSupportsWebAuthnAutofill();
  } catch {
    return false;
  }
}

/** Creates a passkey with the server's options (the browser asks the person). */
export async function createPasskey(options: object): Promise<RegistrationResponseJSON> {
  const { startRegistration } = await load();
  return startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
}

/** Signs with a passkey: a dialog of the browser, or (`autofill`) a quiet wait for a pick among the field's suggestions. */
export async function signWithPasskey(options: object, autofill = false): Promise<AuthenticationResponseJSON> {
  const { startAuthentication } = await load();
  return startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
    useBrowserAutofill: autofill,
  });
}

/** Ends a ceremony under way (the autofill one when the page goes, or before a dialog of its own). */
export function cancelPasskeyCeremony(): void {
  // Only a loaded library can have a ceremony under way; synchronous, so a ceremony started next is not cancelled.
  library.loaded()?.WebAuthnAbortService.cancelCeremony();
}

/** The person closed the browser's dialog, or the ceremony was cancelled or timed out. */
export function isCancelledCeremony(error: unknown): boolean {
  const name = (error as Error | undefined)?.name;
  return name === 'NotAllowedError' || name === 'AbortError';
}

/** The message of a cancelled ceremony. */
export const CANCELLED = 'Se canceló la operación';

/**
 * What the browser said about a passkey it could not create, in words a person can act on; null when it said nothing
 * more than a failure (a cancel has its own message: CANCELLED).
 */
export function creationProblem(error: unknown): string | null {
  switch ((error as Error | undefined)?.name) {
    case 'InvalidStateError':
      return 'este dispositivo ya guarda una llave de acceso de tu cuenta';
    case 'ConstraintError':
      return 'este dispositivo no puede guardar una llave de acceso protegida con tu huella, tu rostro o un PIN';
    case 'NotSupportedError':
      return 'este dispositivo no admite el tipo de llave de acceso que usa el portal';
    case 'SecurityError':
      return 'el navegador no permite llaves de acceso del portal en esta dirección';
    default:
      return null;
  }
}
