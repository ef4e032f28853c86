import { Type } from 'typebox';
import { PlanCompany, PlanOrigin } from './auth.js';
import { Nullable } from './common.js';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

export const UserAppPlansBody = Type.Object(
  {
    idUsuario: Id,
  },
  { additionalProperties: false },
);

export const UserAppPlanInfo = Type.Object(
  {
    app: Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false }),
    planActual: Nullable(
      Type.Object(
        {
          id: Type.Integer(),
          nombre: Type.String(),
          fechaVencimiento: Nullable(Type.String({ format: 'date-time' })),
          origen: PlanOrigin,
          empresa: PlanCompany,
        },
        { additionalProperties: false },
      ),
    ),
    planPropio: Nullable(
      Type.Object(
        {
          id: Type.Integer(),
          nombre: Type.String(),
          fechaVencimiento: Nullable(Type.String({ format: 'date-time' })),
          vencido: Type.Boolean({ description: 'Su fecha de vencimiento ya pasó' }),
        },
        {
          additionalProperties: false,
          description:
            'El plan propio de la persona en la app (el que asigna un administrador), también si venció o si un puesto lo supera',
        },
      ),
    ),
    puestos: Type.Array(
      Type.Object(
        {
          empresa: Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false }),
          plan: Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false }),
          fechaVencimiento: Type.String({ format: 'date-time' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Los puestos de empresa que le dan un plan en la app: solo la empresa los cambia' },
    ),
    planesApp: Type.Array(Type.Object({ id: Type.Integer(), nombre: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const ChangePlanBody = Type.Object(
  {
    idUsuario: Id,
    idApp: Id,
    // 0 is the client's "no plan": accepted by the schema so that the answer can say why it is refused.
    idPlan: Type.Integer({ minimum: 0, maximum: 2147483647 }),
    fechaVencimiento: Type.String({
      format: 'date-time',
      maxLength: 40,
      description: 'ISO 8601; el cliente envía la medianoche UTC del día elegido',
    }),
  },
  { additionalProperties: false },
);
