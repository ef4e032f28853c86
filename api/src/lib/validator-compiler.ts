import { Ajv, type AnySchema, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const shared: Options = {
  // Unknown fields are refused by `additionalProperties: false` in the schemas, never silently dropped.
  removeAdditional: false,
  useDefaults: true,
  // One error is enough for the message, and collecting all of them lets crafted input cost more.
  allErrors: false,
};

/**
 * Fastify's default coerces types everywhere. Only URL parts (querystring, path params, headers) arrive as strings
 * and need coercion; a JSON body with `"age": "5"` for a number is the client's mistake and gets a 400.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<AnySchema> {
  validators ??= newValidators();
  const { exact, coercing } = validators;
  return ({ schema, httpPart }) => storableOnly((httpPart === 'body' ? exact : coercing).compile(schema));
}

/**
 * One pair per process: Ajv keeps each compiled schema under the schema object, and the routes' schemas are the
 * modules' own objects, so a second app in the process (two instances in one process, the test suites' apps) finds
 * every validator compiled already instead of compiling them all again.
 */
let validators: { exact: Ajv; coercing: Ajv } | undefined;

function newValidators(): { exact: Ajv; coercing: Ajv } {
  const exact = new Ajv({ ...shared, coerceTypes: false });
  const coercing = new Ajv({ ...shared, coerceTypes: true });
  addFormats.default(exact);
  addFormats.default(coercing);
  return { exact, coercing };
}

type Unstorable = { instancePath: string; keyword: 'type' | 'character' };

/** NUL, which PostgreSQL refuses in text, and halves of surrogate pairs, which are no text at all (URL encoding throws). */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What no column can hold, at its path: a number that is not finite (Ajv coerces the URL text `Infinity` or `1e400`
 * into one that passes `integer` and skips `minimum`/`maximum`) or text with a bad character.
 */
function unstorable(data: unknown, instancePath = ''): Unstorable | undefined {
  if (typeof data === 'number') return Number.isFinite(data) ? undefined : { instancePath, keyword: 'type' };
  if (typeof data === 'string')
    return data.includes('\u0000') || loneSurrogate.test(data) ? { instancePath, keyword: 'character' } : undefined;
  if (data === null || typeof data !== 'object') return undefined;
  for (const [key, value] of Object.entries(data)) {
    const found = unstorable(value, `${instancePath}/${key}`);
    if (found) return found;
  }
  return undefined;
}

/** What a one-line text refuses (schemas/common.ts): a control character, or U+FFFD (left for bytes not in UTF-8). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for.
const refusedCharacter = /[\u0000-\u001f\u007f\ufffd]/;

/** The value at an Ajv `instancePath` (`/tags/0/descripcion`). */
function valueAt(data: unknown, instancePath: string): unknown {
  let value = data;
  for (const key of instancePath.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return value;
}

/**
 * A pattern's refusal of a text that holds such a character names the character: "contains a character it does not
 * take" tells the person what to fix, where "is not valid" would not.
 */
function named(error: ErrorObject, data: unknown): ErrorObject {
  if (error.keyword !== 'pattern') return error;
  const value = valueAt(data, error.instancePath);
  const character = typeof value === 'string' ? refusedCharacter.exec(value)?.[0] : undefined;
  return character === undefined ? error : { ...error, keyword: 'character', params: { character } };
}

/** The schema's validation, then a 400 for input that would only fail in the database (a 500 there). */
function storableOnly(validate: ValidateFunction): ValidateFunction {
  const checked = ((data: unknown) => {
    if (!validate(data)) {
      checked.errors = validate.errors?.map((error) => named(error, data));
      return false;
    }
    const found = unstorable(data);
    checked.errors = found
      ? [{ ...found, schemaPath: '', params: found.keyword === 'type' ? { type: 'number' } : {} }]
      : validate.errors;
    return !found;
  }) as ValidateFunction;
  return checked;
}
