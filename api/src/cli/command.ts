// What an order of `npm run admin` is, shared by the orders' modules (accounts, backups and the parsing in admin.ts,
// OpenID Connect clients in oidc-clients.ts).
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

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
type OptionSpecs = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

/** An order on accounts or clients: it runs on the API built without listening. */
export interface AccountCommand {
  kind: 'account';
  /** How many positional arguments it takes; 'varios' for an order with sub-orders, which checks them itself. */
  positionals: 0 | 1 | 'varios';
  /** For 'varios': checks the positionals and options before any database is opened; throws a Refusal with exit code 2. */
  checkPositionals?: (positionals: string[], options: OptionValues) => void;
  /** Checks the positional before any database is opened (an email, unless the order says otherwise). */
  positional?: (raw: string) => void;
  options?: OptionSpecs;
  /** Checks the options before any database is opened; throws a Refusal with exit code 2. */
  checkOptions?: (options: OptionValues) => void;
  run(app: FastifyInstance, args: string[], options: OptionValues): Promise<string>;
}

/** An order on the embedded database's files (a backup, a restore): it must not open the database as the API does. */
export interface DataCommand {
  kind: 'data';
  /** Its one positional argument: a file. */
  positionals: 1;
  options?: OptionSpecs;
  run(config: Config, file: string, options: OptionValues): Promise<string>;
}

export type Command = AccountCommand | DataCommand;
