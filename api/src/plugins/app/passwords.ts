import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import fp from 'fastify-plugin';

// OWASP's argon2id settings. The library's default algorithm is argon2id (its `Algorithm` is a const enum, which
// isolated modules cannot import); the stored hash's `$argon2id$v=19$m=19456,t=2,p=1$` prefix is checked in tests.
const options = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** Runs on the library's thread pool, off the event loop. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash is a failed sign-in, not a server error.
    return false;
  }
}

export interface PasswordService {
  hash(password: string): Promise<string>;
  /** Checks the password; without a stored hash it still spends the same time, so timing reveals no accounts. */
  verify(passwordHash: string | null | undefined, password: string): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    passwords: PasswordService;
  }
}

export default fp(
  async (app) => {
    const dummyHash = await hashPassword(randomBytes(16).toString('base64url'));
    app.decorate('passwords', {
      hash: hashPassword,
      async verify(passwordHash, password) {
        const matches = await verifyPassword(passwordHash ?? dummyHash, password);
        return Boolean(passwordHash) && matches;
      },
    } satisfies PasswordService);
  },
  { name: 'passwords' },
);
