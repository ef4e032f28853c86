// A software WebAuthn authenticator for the passkey tests: one EC P-256 key (ES256) from node:crypto, answering the
// options the API hands out as a browser with a platform authenticator would (RegistrationResponseJSON and
// AuthenticationResponseJSON of @simplewebauthn/browser). Attestation 'none'. Every field a test may want to break
// (origin, type, flags, counter, user handle, challenge) can be overridden per call.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const flag = { up: 0x01, uv: 0x04, be: 0x08, bs: 0x10, at: 0x40 } as const;

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');

export interface SoftAuthenticatorOptions {
  rpId: string;
  origin: string;
  /** Backup eligible and backed up (a synced passkey): BE and BS flags. Default false. */
  backedUp?: boolean;
  /** The counter of the first assertion is this plus one; 0 keeps a counter that never moves when `counting` is false. */
  counter?: number;
  /** Whether the counter increases at every assertion (default true); false answers 0 always, like synced passkeys. */
  counting?: boolean;
}

export interface CeremonyOverrides {
  origin?: string;
  challenge?: string;
  type?: string;
  rpId?: string;
  /** User verification flag (default true). */
  userVerified?: boolean;
  /** The counter to sign instead of the next one. */
  counter?: number;
  /** The user handle to give back (base64url) instead of the one registered; null gives none. */
  userHandle?: string | null;
}

interface OptionsWithChallenge {
  challenge: string;
}

interface CreationOptions extends OptionsWithChallenge {
  user: { id: string };
}

export class SoftAuthenticator {
  readonly credentialId: string;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  counter: number;
  /** The user handle the registration options carried (base64url), given back at every assertion. */
  userHandle: string | undefined;

  constructor(private readonly settings: SoftAuthenticatorOptions) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
    this.credentialId = b64url(randomBytes(16));
    this.counter = settings.counter ?? 0;
  }

  /** The public key as COSE_Key (EC2, ES256, P-256), CBOR-encoded. */
  cosePublicKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    const key = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x ?? '', 'base64url')],
      [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]);
    return isoCBOR.encode(key);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  private authenticatorData(rpId: string, flags: number, counter: number, attested?: Uint8Array): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([
      createHash('sha256').update(rpId).digest(),
      Buffer.from([flags]),
      count,
      ...(attested ? [Buffer.from(attested)] : []),
    ]);
  }

  private flags(overrides: CeremonyOverrides, attested: boolean): number {
    let flags = flag.up;
    if (overrides.userVerified !== false) flags |= flag.uv;
    if (this.settings.backedUp) flags |= flag.be | flag.bs;
    if (attested) flags |= flag.at;
    return flags;
  }

  /** Answers `navigator.credentials.create()` for the options of POST /auth/passkeys/opciones-registro. */
  register(options: CreationOptions, overrides: CeremonyOverrides = {}) {
    this.userHandle = options.user.id;
    const clientDataJSON = this.clientData(
      overrides.type ?? 'webauthn.create',
      overrides.challenge ?? options.challenge,
      overrides.origin ?? this.settings.origin,
    );
    const id = Buffer.from(this.credentialId, 'base64url');
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, Buffer.from(this.cosePublicKey())]);
    const authData = this.authenticatorData(
      overrides.rpId ?? this.settings.rpId,
      this.flags(overrides, true),
      overrides.counter ?? this.counter,
      attested,
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal', 'hybrid'],
      },
    };
  }

  /** Answers `navigator.credentials.get()` for the options of POST /auth/passkeys/opciones-inicio. */
  assert(options: OptionsWithChallenge, overrides: CeremonyOverrides = {}) {
    let counter = overrides.counter;
    if (counter === undefined) {
      if (this.settings.counting !== false) this.counter += 1;
      counter = this.settings.counting === false ? 0 : this.counter;
    }
    const clientDataJSON = this.clientData(
      overrides.type ?? 'webauthn.get',
      overrides.challenge ?? options.challenge,
      overrides.origin ?? this.settings.origin,
    );
    const authenticatorData = this.authenticatorData(
      overrides.rpId ?? this.settings.rpId,
      this.flags(overrides, false),
      counter,
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, createHash('sha256').update(clientDataJSON).digest()]),
      this.privateKey,
    );
    const userHandle = overrides.userHandle === undefined ? this.userHandle : overrides.userHandle;
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        ...(userHandle === null || userHandle === undefined ? {} : { userHandle }),
      },
    };
  }
}
