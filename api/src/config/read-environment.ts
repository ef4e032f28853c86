// Reads the environment against a schema of variables (./environment.ts says what a schema may declare): each
// variable in order is read, given its default, checked and converted; the first problem stops the reading with its
// Spanish line.
import { IsArray, IsBoolean, IsInteger, type StaticDecode, type TObject, type TSchema } from 'typebox';
import Value from 'typebox/value';

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(variable: string, problem: string);
  /** Several problems reported at once: one line each, in order. */
  constructor(problems: ConfigError[]);
  constructor(variable: string | ConfigError[], problem?: string) {
    super(
      typeof variable === 'string'
        ? `Configuración inválida: ${variable} ${problem}`
        : variable.map((error) => error.message).join('\n'),
    );
    this.name = 'ConfigError';
  }
}

/** A variable's text: trimmed, empty counting as unset (`FOO= npm start` is leaving FOO out). */
export function given(env: Env, name: string, { trim = true } = {}): string | undefined {
  const text = trim ? env[name]?.trim() : env[name];
  return text ? text : undefined;
}

/** What the variables after the schema's own checks still need, each seeing the values read before it. */
export interface Rules<Values> {
  /** Defaults that follow from other variables (or from where the code is); checked like a value given. */
  defaults?: { [K in keyof Values]?: (values: Values) => unknown };
  /** Checks across variables, run right after the variable they are listed under: each throws a ConfigError. */
  checks?: { [K in keyof Values]?: (values: Values, env: Env) => void };
}

/** The variables of `schema` read from `env`, or the ConfigError of the first that is wrong. */
export function readEnvironment<T extends TObject>(
  schema: T,
  env: Env,
  { defaults = {}, checks = {} }: Rules<StaticDecode<T>> = {},
): StaticDecode<T> {
  const values: Record<string, unknown> = {};
  const derived = defaults as Record<string, ((values: unknown) => unknown) | undefined>;
  const rules = checks as Record<string, ((values: unknown, env: Env) => void) | undefined>;
  for (const [name, type] of Object.entries(schema.properties as Record<string, TSchema & Declared>)) {
    values[name] = readVariable(name, type, env, values, derived[name]);
    rules[name]?.(values, env);
  }
  return values as StaticDecode<T>;
}

/** The declarations environment.ts adds to TypeBox's keywords. */
interface Declared {
  default?: unknown;
  errorMessage?: string | Record<string, string>;
  lowercase?: boolean;
  trim?: boolean;
  onlyWith?: string;
}

function readVariable(
  name: string,
  type: TSchema & Declared,
  env: Env,
  values: Record<string, unknown>,
  derived: ((values: unknown) => unknown) | undefined,
): unknown {
  if (type.onlyWith !== undefined && values[type.onlyWith] === undefined) return undefined;
  const text = given(env, name, { trim: type.trim !== false });
  const value = text === undefined ? (derived ? derived(values) : type.default) : fromText(type, text);
  if (value === undefined) return undefined;
  const [error] = Value.Errors(type, value);
  if (error !== undefined) throw new ConfigError(name, problem(name, type, error, value));
  return Value.Decode(type, value);
}

/** The text as the schema's type: digits as a number, true|false as a boolean, a comma-separated list. */
function fromText(type: TSchema & Declared, given: string): unknown {
  const text = type.lowercase ? given.toLowerCase() : given;
  if (IsInteger(type)) return /^\d+$/.test(text) ? Number(text) : text;
  if (IsBoolean(type)) return text === 'true' ? true : text === 'false' ? false : text;
  if (IsArray(type)) {
    return text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  }
  return text;
}

/** The Spanish problem: a refinement's own, or the variable's `errorMessage` for the keyword that refused it. */
function problem(name: string, type: Declared, error: { keyword: string; message: string }, value: unknown): string {
  if (error.keyword === '~refine') return error.message;
  const text = typeof type.errorMessage === 'object' ? type.errorMessage[error.keyword] : type.errorMessage;
  if (text === undefined) throw new Error(`${name}: the schema has no errorMessage for "${error.keyword}"`);
  return text.replaceAll('{value}', String(value));
}
