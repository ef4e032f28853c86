// The shapes of a company's SIEM destinations (routes/companies/audit-streams.ts, docs/registro-para-siem.md).
import { Type } from 'typebox';
import { LiteralUnion, Nullable, printable } from './common.js';

const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const StreamId = Type.String({ format: 'uuid', description: 'El id del destino' });

export const AuditStreamParams = Type.Object({ id: Id, idFlujo: StreamId }, { additionalProperties: false });

const Pem = (description: string) => Type.String({ minLength: 1, maxLength: 20_000, description });

const fields = {
  host: Type.String({ minLength: 1, maxLength: 255, description: 'syslog: el servidor (nombre o dirección IP)' }),
  puerto: Type.Integer({ minimum: 1, maximum: 65_535, description: 'syslog: el puerto TLS (6514 de costumbre)' }),
  ca: Nullable(Pem('El certificado (PEM) de la autoridad en la que confiar; sin él, las raíces del sistema')),
  certificado: Nullable(Pem('syslog: el certificado (PEM) con el que se presenta el portal, si el receptor lo pide')),
  clave: Nullable(Pem('syslog: la clave privada (PEM, sin contraseña) de ese certificado. No se vuelve a mostrar')),
  url: Type.String({ minLength: 1, maxLength: 2_000, description: 'https: la dirección del colector' }),
  cabecera: Nullable(
    Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$",
      description: 'https: el nombre de la cabecera que lleva el secreto (p. ej. Authorization)',
    }),
  ),
  secreto: Nullable(
    Type.String({
      minLength: 1,
      maxLength: 4_096,
      pattern: `^${printable}+$`,
      description:
        'https: el valor de esa cabecera (con Splunk HEC y Authorization, el token: el portal antepone «Splunk »). No se vuelve a mostrar',
    }),
  ),
  formato: LiteralUnion(['ndjson', 'splunk-hec'] as const, {
    description: 'https: un documento JSON por línea, o los eventos de Splunk HEC ({"time", "event"})',
  }),
};

const optional = Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, Type.Optional(schema)])) as {
  [K in keyof typeof fields]: ReturnType<typeof Type.Optional<(typeof fields)[K]>>;
};

export const CreateAuditStreamBody = Type.Object(
  { tipo: LiteralUnion(['syslog', 'https'] as const), ...optional },
  { additionalProperties: false },
);

export const UpdateAuditStreamBody = Type.Object(
  {
    ...optional,
    estado: Type.Optional(
      LiteralUnion(['activo', 'pausado'] as const, { description: "'activo' reanuda: envía lo que faltó" }),
    ),
  },
  { additionalProperties: false },
);

export const AuditStream = Type.Object(
  {
    id: Type.String(),
    tipo: LiteralUnion(['syslog', 'https'] as const),
    host: Type.Optional(Type.String()),
    puerto: Type.Optional(Type.Integer()),
    ca: Nullable(Type.String()),
    certificado: Type.Optional(Nullable(Type.String())),
    tieneClave: Type.Optional(Type.Boolean({ description: 'Si tiene clave de cliente (que nunca se muestra)' })),
    url: Type.Optional(Type.String()),
    cabecera: Type.Optional(Nullable(Type.String())),
    tieneSecreto: Type.Optional(Type.Boolean({ description: 'Si tiene secreto (que nunca se muestra)' })),
    formato: Type.Optional(LiteralUnion(['ndjson', 'splunk-hec'] as const)),
    estado: LiteralUnion(['activo', 'pausado'] as const),
    entregadoHasta: Nullable(
      Type.String({ format: 'date-time', description: 'Cuándo ocurrió la última entrada entregada' }),
    ),
    entregadoEn: Nullable(Type.String({ format: 'date-time', description: 'Cuándo se entregó' })),
    retraso: Type.Object(
      {
        entradas: Type.Integer({ description: 'Entradas confirmadas que aún no se le entregaron' }),
        segundos: Type.Integer({ description: 'Cuánto lleva esperando la más antigua de ellas' }),
      },
      { additionalProperties: false },
    ),
    ultimoError: Nullable(Type.String({ description: 'Lo que vio el último intento fallido, en español' })),
    proximoIntento: Nullable(Type.String({ format: 'date-time' })),
    creadoEn: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const AuditStreamList = Type.Object({ data: Type.Array(AuditStream) }, { additionalProperties: false });

export const AuditStreamTestResult = Type.Object(
  {
    entregado: Type.Boolean(),
    mensaje: Type.String({ description: 'Lo que dijo el receptor, en español' }),
  },
  { additionalProperties: false },
);
