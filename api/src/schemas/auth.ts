import { Type } from 'typebox'
import { userStatuses } from '../db/schema.js'
import { Nullable } from './common.js'

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 256 }),
}, { additionalProperties: false })

export const AccessToken = Type.Object({
  access_token: Type.String({ description: 'JWT ES256; verificable con /.well-known/jwks.json' }),
}, { additionalProperties: false })

export const UserPlan = Type.Object({
  id: Type.Integer(),
  plan: Type.Object({ nombre: Type.String(), descripcion: Type.String() }, { additionalProperties: false }),
  app: Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false }),
  fechaVencimiento: Nullable(Type.String({ format: 'date-time' })),
}, { additionalProperties: false })

export const CurrentUser = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  lastName: Type.String(),
  phone: Type.String(),
  picture: Nullable(Type.String()),
  role: Type.Integer({ description: '1 = administrador, 2 = usuario' }),
  presentacion: Type.Boolean(),
  status: Type.Union(userStatuses.map((status) => Type.Literal(status))),
  createdAt: Type.String({ format: 'date-time' }),
  planesUsuarios: Type.Array(UserPlan),
}, { additionalProperties: false })
