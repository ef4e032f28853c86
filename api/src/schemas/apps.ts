import { Type, type Static } from 'typebox';
import { Nullable } from './common.js';

export const AppTag = Type.Object(
  {
    descripcion: Type.String(),
  },
  { additionalProperties: false },
);

export const App = Type.Object(
  {
    id: Type.Integer(),
    nombre: Type.String(),
    descripcion: Type.String(),
    longDescription: Type.String(),
    iconUrl: Nullable(Type.String()),
    webUrl: Nullable(Type.String({ description: 'URL absoluta o ruta del portal (p. ej. /calculadora-txi)' })),
    iosUrl: Nullable(Type.String()),
    androidUrl: Nullable(Type.String()),
    isEnabledWeb: Type.Boolean(),
    isEnabledMovil: Type.Boolean(),
    tags: Type.Array(AppTag),
    inicioSesionUrl: Type.Optional(
      Nullable(
        Type.String({
          description:
            'Dónde abrir la app para que inicie sesión ella misma con el portal (OpenID Connect, inicio de sesión ' +
            'iniciado por terceros); null: se abre webUrl como siempre',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

export type App = Static<typeof App>;
