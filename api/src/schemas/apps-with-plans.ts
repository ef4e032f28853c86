import { Type, type Static } from 'typebox';
import { Nullable } from './common.js';

export const PlanWithPrices = Type.Object(
  {
    id: Type.Integer(),
    nombre: Type.String({ description: "'free' (sin distinguir mayúsculas) es el plan gratuito; los demás son PRO" }),
    caracteristicas: Type.Array(Type.String()),
    precioMensual: Type.Number({ description: 'USD por mes' }),
    precioAnual: Type.Number({ description: 'USD por año' }),
  },
  { additionalProperties: false },
);

export const AppWithPlans = Type.Object(
  {
    id: Type.Integer(),
    nombre: Type.String(),
    iconUrl: Nullable(Type.String()),
    descripcion: Type.String(),
    longDescription: Type.String(),
    planes: Type.Array(PlanWithPrices),
  },
  { additionalProperties: false },
);

export type AppWithPlans = Static<typeof AppWithPlans>;
