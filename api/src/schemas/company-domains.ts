import { Type } from 'typebox';
import { Nullable } from './common.js';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

/** A domain as typed or in an address: up to 253 characters of a DNS name (an IDN may come in Unicode). */
const DomainText = Type.String({ minLength: 1, maxLength: 253 });

export const CompanyDomainParams = Type.Object({ id: Id, dominio: DomainText }, { additionalProperties: false });

export const ClaimDomainBody = Type.Object(
  {
    dominio: Type.String({
      minLength: 1,
      maxLength: 253,
      description:
        'El dominio de los emails de la empresa (minera-andina.cl): un dominio registrable, no un subdominio, ni un sufijo público, ni un correo gratuito',
    }),
  },
  { additionalProperties: false },
);

export const CompanyDomain = Type.Object(
  {
    dominio: Type.String({ description: 'En minúsculas; un dominio internacional en su forma ASCII (xn--…)' }),
    verificado: Type.Boolean({ description: 'Probado: quien verifica un email de este dominio entra en la empresa' }),
    verificadoPor: Nullable(
      Type.Union([Type.Literal('dns'), Type.Literal('admin')], {
        description: "'dns': por el registro TXT; 'admin': confirmado por un administrador de la plataforma",
      }),
    ),
    verificadoEn: Nullable(Type.String({ format: 'date-time' })),
    registroTxt: Type.Object(
      {
        nombre: Type.String({ description: '_portal-verificacion.<dominio>' }),
        valor: Type.String({ description: 'portal-verificacion=<token>' }),
      },
      { additionalProperties: false, description: 'El registro TXT que la empresa publica en su DNS para probarlo' },
    ),
  },
  { additionalProperties: false },
);
