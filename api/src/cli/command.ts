// What a command of `npm run admin` is, shared by the commands' modules (accounts in admin.ts, OpenID Connect
// clients in oidc-clients.ts).
import type { FastifyInstance } from 'fastify';

/** A message for the person at the console, and the exit code that goes with it (1 refused, 2 wrong arguments). */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface Command {
  /** How many positional arguments (the email) it takes. */
  positionals: number;
  /** Checks a positional before any database is opened (an email, unless the command says otherwise). */
  positional?: (raw: string) => void;
  options?: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  run(app: FastifyInstance, args: string[], options: OptionValues): Promise<string>;
}
