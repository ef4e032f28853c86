import { Ajv, type AnySchema, type Options } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'

const shared: Options = {
  // Unknown fields are refused by `additionalProperties: false` in the schemas, never silently dropped.
  removeAdditional: false,
  useDefaults: true,
  // One error is enough for the message, and collecting all of them lets crafted input cost more.
  allErrors: false,
}

/**
 * Fastify's default coerces types everywhere. Only URL parts (querystring, path params, headers) arrive as strings
 * and need coercion; a JSON body with `"age": "5"` for a number is the client's mistake and gets a 400.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<AnySchema> {
  const exact = new Ajv({ ...shared, coerceTypes: false })
  const coercing = new Ajv({ ...shared, coerceTypes: true })
  addFormats.default(exact)
  addFormats.default(coercing)
  return ({ schema, httpPart }) => (httpPart === 'body' ? exact : coercing).compile(schema)
}
