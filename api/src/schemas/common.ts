import { type TLiteral, Type, type TSchema, type TUnion } from 'typebox';

export const ErrorResponse = Type.Object(
  {
    statusCode: Type.Integer(),
    message: Type.String({ description: 'Mensaje en español para mostrar al usuario' }),
    code: Type.Optional(
      Type.String({ description: 'Código estable para que el cliente reaccione (p. ej. EMAIL_NOT_VERIFIED)' }),
    ),
    retryAfter: Type.Optional(
      Type.Integer({ description: 'Segundos hasta poder reintentar (igual que la cabecera Retry-After)' }),
    ),
  },
  { $id: 'ErrorResponse', additionalProperties: false },
);

/** Reference to the shared error shape, registered once with `app.addSchema`. */
export const ErrorRef = Type.Ref('ErrorResponse');

/** Error answers every route can give, for the OpenAPI document. */
export const commonErrors = {
  400: ErrorRef,
  500: ErrorRef,
  503: ErrorRef,
};

// Control characters are refused in every one-line stored text (names, tags): PostgreSQL rejects NUL, and the rest
// only hide tricks. So is U+FFFD, which a decoder leaves where a client sent bytes that are not UTF-8: the text it
// stood for is lost. Long descriptions keep their line breaks.
export const printable = '[^\\u0000-\\u001f\\u007f\\ufffd]';

/** A one-line text a person names something with: 1 to `maxLength` printable characters, not only spaces. */
export const OneLineText = (maxLength: number) =>
  Type.String({ minLength: 1, maxLength, pattern: `^(?=.*\\S)${printable}+$` });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const PageQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  },
  { additionalProperties: false },
);

export const Page = <T extends TSchema>(item: T) =>
  Type.Object(
    {
      data: Type.Array(item),
      total: Type.Integer(),
      totalPages: Type.Integer(),
      currentPage: Type.Integer(),
      hasNextPage: Type.Boolean(),
      count: Type.Integer({ description: 'Elementos en esta página' }),
    },
    { additionalProperties: false },
  );

export const IdParams = Type.Object(
  {
    id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  },
  { additionalProperties: false },
);

/**
 * `anyOf` the given strings, each a `const`: the same JSON Schema as `Type.Union(values.map(Type.Literal))`, with the
 * literals kept in the static type (a mapped array would widen them to `never`), so the browser's types say
 * `'active' | 'pending_verification' | 'suspended'`.
 */
export function LiteralUnion<const T extends readonly string[]>(
  values: T,
  options?: { description?: string },
): TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }> {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  ) as TUnion as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>;
}

/** What an administrator-only route documents besides its own answers: 401 without a session, 403 for others. */
export const adminErrors = { 401: ErrorRef, 403: ErrorRef, ...commonErrors };

/** The OpenAPI security of a route that takes the bearer token. */
export const bearerSecurity = [{ bearerAuth: [] }];
