/** The scimType values of RFC 7644 §3.12 the portal answers with. */
export type ScimType =
  | 'invalidFilter'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'invalidValue'
  | 'uniqueness'
  | 'mutability'
  | 'noTarget'
  | 'tooMany';

/**
 * A refusal of the SCIM API: answered as RFC 7644's error body
 * `{"schemas":["urn:ietf:params:scim:api:messages:2.0:Error"],"status":"400","scimType":…,"detail":…}` with a
 * Spanish detail, never as the API's usual `{statusCode, message}`.
 */
export class ScimError extends Error {
  /** The userName the refused request was about, when known (for the company's registro). */
  userName?: string;

  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
    this.name = 'ScimError';
  }
}

export const scimErrorSchema = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** The body of a SCIM error. */
export function scimErrorBody(error: ScimError) {
  return {
    schemas: [scimErrorSchema],
    status: String(error.status),
    ...(error.scimType ? { scimType: error.scimType } : {}),
    detail: error.detail,
  };
}

/** What the SCIM API says, in Spanish: to the directory's administrators (its log) and in the company's registro. */
export const scimMessages = {
  noToken: 'Falta el token del directorio: envía Authorization: Bearer <token SCIM de la empresa>',
  badToken: 'El token del directorio no es válido o fue revocado: crea otro en el portal (Empresa → Directorio)',
  companySuspended: 'La empresa está suspendida: el directorio no puede cambiar a sus personas',
  notFound: 'Recurso no encontrado',
  userNotFound: 'No hay ninguna persona con ese id en el directorio de la empresa',
  groupNotFound: 'No hay ningún grupo con ese id en el directorio de la empresa',
  groupNameRequired: 'Falta displayName: el nombre del grupo',
  groupNameTaken: (value: string) => `Ya hay un grupo llamado ${value} en el directorio de la empresa`,
  groupExternalIdTaken: (value: string) => `Ya hay un grupo con externalId ${value} en el directorio de la empresa`,
  groupMemberValue: 'Cada miembro del grupo debe ser un objeto con value: el id de una persona del directorio',
  groupMemberUnknown: (value: string) =>
    `El miembro ${value} no es una persona del directorio de la empresa: da de alta a la persona antes de añadirla al grupo`,
  groupPath: (path: string) => `El path ${path} no es un atributo de grupo que el portal reciba`,
  groupFilterAttribute: (name: string) =>
    `El filtro de grupos no admite el atributo ${name}: usa displayName, externalId o id`,
  schemaNotFound: 'Este portal no tiene ese esquema',
  resourceTypeNotFound: 'Este portal no tiene ese tipo de recurso',
  methodNotAllowed: 'Método no permitido en esta dirección',
  invalidJson: 'El cuerpo de la petición no es un JSON válido',
  emptyBody: 'El cuerpo de la petición está vacío',
  bodyTooLarge: 'El cuerpo de la petición es demasiado grande (máximo 100 KB)',
  mediaType: 'Tipo de contenido no admitido: envía application/scim+json o application/json',
  badRequest: 'Solicitud inválida',
  internal: 'Error interno del servidor',
  unavailable: 'Servicio no disponible temporalmente. Inténtalo de nuevo en unos segundos.',
  bodyNotObject: 'El cuerpo debe ser un objeto JSON',
  userNameRequired: 'Falta userName: debe ser el email de la persona',
  userNameNotEmail: (value: string) => `userName ${value} no es un email`,
  userNameDomain: (domain: string) =>
    `El dominio ${domain} no es uno de los dominios probados de la empresa: solo se provisionan emails de sus dominios`,
  userNameTaken: (value: string) => `Ya hay una persona con userName ${value} en el directorio de la empresa`,
  accountTaken: 'La cuenta de ese email ya está en el directorio de la empresa con otro userName',
  notString: (attribute: string) => `${attribute} debe ser un texto`,
  tooLong: (attribute: string, max: number) => `${attribute} admite a lo sumo ${max} caracteres`,
  notBoolean: (attribute: string) => `${attribute} debe ser true o false`,
  lastOwner:
    'Es el último propietario de la empresa: no se le puede quitar del directorio hasta que la empresa nombre otro propietario en el portal',
  startIndex: 'startIndex debe ser un número entero desde 1',
  count: 'count debe ser un número entero desde 0',
  filterTooLong: 'El filtro es demasiado largo (máximo 1000 caracteres)',
  filterSyntax: (near: string) => `El filtro no se entiende cerca de ${near}`,
  filterAttribute: (name: string) =>
    `El filtro no admite el atributo ${name}: usa userName, externalId, id, emails.value, emails[type eq "work"].value, active, displayName, name.givenName, name.familyName, meta.created o meta.lastModified`,
  filterOperator: (op: string) =>
    `El filtro no admite el operador ${op}: usa eq, ne, co, sw, ew, pr, and, or (y gt, ge, lt, le con las fechas de meta)`,
  filterValue: (name: string) => `El valor del filtro de ${name} no es del tipo del atributo`,
  patchOperations: 'Falta Operations: una lista de operaciones add, replace o remove',
  patchTooMany: 'Demasiadas operaciones en un PATCH (máximo 100)',
  patchOp: (op: string) => `La operación ${op} no existe: usa add, replace o remove`,
  patchValue: 'La operación necesita un valor (value)',
  patchValueObject: 'Una operación sin path necesita un objeto en value',
  patchPath: (path: string) => `El path ${path} no es un atributo que el portal reciba`,
  patchRemoveRequired: (attribute: string) => `${attribute} no se puede quitar`,
  readOnly: (attribute: string) => `${attribute} es de solo lectura`,
} as const;

/** A value sent by the directory, as a message quotes it: between quotes, at most 100 characters. */
export function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const visible = (text ?? '').replace(/[\p{Cc}\p{Cf}]/gu, '?');
  return `«${visible.length > 100 ? `${visible.slice(0, 100)}…` : visible}»`;
}
