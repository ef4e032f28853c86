import { Type } from 'typebox';
import { userStatuses } from '../db/schema.js';
import { LiteralUnion, Nullable, Page } from './common.js';

export const UserStatusSchema = LiteralUnion(userStatuses);

/** A user as the API shows one, written once: the admin's list row and the signed-in person's own view both use it. */
export const userFields = {
  id: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  lastName: Type.String(),
  phone: Type.String(),
  picture: Nullable(Type.String()),
  role: Type.Integer({ description: '1 = administrador, 2 = usuario' }),
  status: UserStatusSchema,
  createdAt: Type.String({ format: 'date-time' }),
};

/** One row of the admin's user list (and the answer of a status change). Never the password hash. */
export const UserListItem = Type.Object(userFields, { additionalProperties: false });

/** An opaque place in the list (cursor.ts): base64url text, refused here before it is read when it cannot be one. */
const ListCursor = (description: string) =>
  Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$', description });

/**
 * A page of the user list: the usual page fields, whether `total` is the cap of a text-filtered count (there are
 * more matches than that: the panel says 'Más de 1.000 usuarios'), and the cursors of the pages beside it.
 */
export const UserPage = Type.Object(
  {
    ...Page(UserListItem).properties,
    totalCapped: Type.Boolean({
      description: 'true: el filtro de email o nombre coincide con más usuarios que `total` (1 000), que no se cuentan',
    }),
    nextCursor: Nullable(
      ListCursor('`after` de la página siguiente (su última fila); null cuando no hay página siguiente'),
    ),
    prevCursor: Nullable(ListCursor('`before` de la página anterior (su primera fila); null en la primera página')),
  },
  { additionalProperties: false },
);

export const UserListQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
    name: Type.Optional(
      Type.String({ maxLength: 100, description: 'Parte del nombre o del apellido, sin distinguir mayúsculas' }),
    ),
    email: Type.Optional(Type.String({ maxLength: 254, description: 'Parte del email, sin distinguir mayúsculas' })),
    status: Type.Optional(UserStatusSchema),
    after: Type.Optional(
      ListCursor('`nextCursor` de la página anterior: la página se busca desde su última fila; `page` dice su número'),
    ),
    before: Type.Optional(
      ListCursor(
        '`prevCursor` de la página siguiente: la página se busca desde su primera fila; `page` dice su número',
      ),
    ),
  },
  { additionalProperties: false },
);

export const VerifyEmailsBody = Type.Object(
  {
    userIds: Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), {
      minItems: 1,
      maxItems: 1000,
      uniqueItems: true,
    }),
  },
  { additionalProperties: false },
);

export const VerifyEmailsResponse = Type.Object(
  {
    verified: Type.Integer({ description: 'Cuántos usuarios pendientes pasaron a activos' }),
    userIds: Type.Array(Type.Integer(), { description: 'Los que pasaron a activos; los demás no estaban pendientes' }),
  },
  { additionalProperties: false },
);

export const UserStats = Type.Object(
  {
    totalUsers: Type.Integer(),
    activeUsers: Type.Integer(),
    pendingVerification: Type.Integer(),
    administrators: Type.Integer(),
  },
  { additionalProperties: false },
);
