import { Type } from 'typebox';
import { LiteralUnion, Nullable, OneLineText } from './common.js';
import { auditActions } from '../domain/audit/actions.js';

const Figure = Type.Object(
  {
    value: Type.Integer(),
    previous: Type.Integer({ description: 'La misma cifra al cierre del mes anterior (o en el mes anterior)' }),
    changePercent: Nullable(
      Type.Number({ description: 'Variación frente al mes anterior en %, null si entonces era 0' }),
    ),
  },
  { additionalProperties: false },
);

export const Dashboard = Type.Object(
  {
    totalUsers: Figure,
    activeApps: Figure,
    activeSubscriptions: Figure,
    newSubscriptions: Figure,
    newUsersPerDay: Type.Array(
      Type.Object(
        {
          date: Type.String({ description: 'YYYY-MM-DD (UTC)' }),
          count: Type.Integer(),
        },
        { additionalProperties: false },
      ),
    ),
    monthlyRevenue: Type.Array(
      Type.Object(
        {
          month: Type.String({ description: 'YYYY-MM (UTC)' }),
          amount: Type.Number({
            description: 'USD cobrados ese mes por suscripciones pagadas (facturas pagadas de la facturación)',
          }),
        },
        { additionalProperties: false },
      ),
    ),
    revenueSource: Type.Union([Type.Literal('billing'), Type.Literal('none')], {
      description:
        "'billing': los ingresos son los cobros de la facturación; 'none': la facturación no está configurada (ingresos 0)",
    }),
    planDistribution: Type.Array(
      Type.Object(
        {
          app: Type.String(),
          plan: Type.String(),
          users: Type.Integer(),
          percentage: Type.Number({ description: 'Sobre todos los planes asignados, un decimal' }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const AuditAction = LiteralUnion(auditActions);

export const AuditQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
    action: Type.Optional(AuditAction),
    targetType: Type.Optional(
      Type.Union([
        Type.Literal('user'),
        Type.Literal('app'),
        Type.Literal('oidc_client'),
        Type.Literal('company'),
        Type.Literal('saml_app'),
      ]),
    ),
    targetId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  },
  { additionalProperties: false },
);

export const AuditEntry = Type.Object(
  {
    id: Type.Integer(),
    actorId: Nullable(Type.Integer()),
    actorEmail: Type.String(),
    action: Type.String(),
    targetType: Type.Union([
      Type.Literal('user'),
      Type.Literal('app'),
      Type.Literal('oidc_client'),
      Type.Literal('company'),
      Type.Literal('saml_app'),
    ]),
    targetId: Type.Integer(),
    targetLabel: Nullable(Type.String({ description: 'Email del usuario o nombre de la app, si aún existen' })),
    details: Type.Record(Type.String(), Type.Unknown()),
    createdAt: Type.String({ format: 'date-time' }),
    origen: Type.Optional(
      Type.Union(
        [
          Type.Literal('scim'),
          Type.Literal('proveedor'),
          Type.Literal('administrador'),
          Type.Literal('enlace'),
          Type.Literal('plataforma'),
          Type.Literal('persona'),
          Type.Literal('consola'),
          Type.Literal('sistema'),
        ],
        {
          description:
            'Solo en el registro de una empresa: de dónde vino el cambio (su directorio SCIM, su proveedor, sus administradores, su equipo de TI con un enlace de configuración, la plataforma, la propia persona, la consola del operador o el propio portal)',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

const url = (description: string) => Nullable(Type.String({ maxLength: 2048, pattern: '^(https?://|/)', description }));
// The app's links are checked by the handler with the shared rules (@portal/contracts apps/links), whose Spanish
// messages name the admin form's labels; a schema pattern would answer with the field's name instead.
const link = (description: string) => Nullable(Type.String({ maxLength: 2048, description }));

const appFields = {
  nombre: OneLineText(100),
  descripcion: Type.String({ maxLength: 500 }),
  longDescription: Type.String({ maxLength: 5000 }),
  iconUrl: url('URL absoluta http(s) o ruta del portal'),
  webUrl: link(
    'https:// (http:// solo en localhost o 127.0.0.1) o ruta del portal (p. ej. /calculadora-txi); otra cosa: 400 INVALID_APP_LINK',
  ),
  iosUrl: link(
    'https:// o enlace profundo de las apps móviles (betopro://… o controlmax://…); otro esquema: 400 INVALID_APP_LINK',
  ),
  androidUrl: link(
    'https:// o enlace profundo de las apps móviles (betopro://… o controlmax://…); otro esquema: 400 INVALID_APP_LINK',
  ),
  isEnabledWeb: Type.Boolean(),
  isEnabledMovil: Type.Boolean(),
  tags: Type.Array(Type.Object({ descripcion: OneLineText(50) }, { additionalProperties: false }), { maxItems: 20 }),
};

export const CreateAppBody = Type.Object(
  {
    nombre: appFields.nombre,
    descripcion: Type.Optional(appFields.descripcion),
    longDescription: Type.Optional(appFields.longDescription),
    iconUrl: Type.Optional(appFields.iconUrl),
    webUrl: Type.Optional(appFields.webUrl),
    iosUrl: Type.Optional(appFields.iosUrl),
    androidUrl: Type.Optional(appFields.androidUrl),
    isEnabledWeb: Type.Optional(appFields.isEnabledWeb),
    isEnabledMovil: Type.Optional(appFields.isEnabledMovil),
    tags: Type.Optional(appFields.tags),
  },
  { additionalProperties: false },
);

/** Any of the creation's fields, at least one. */
export const UpdateAppBody = Type.Partial(CreateAppBody, { additionalProperties: false, minProperties: 1 });
