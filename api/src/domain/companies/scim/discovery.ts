// What a directory reads before syncing (RFC 7644 §4): the same for every company, no company data.
import { groupSchema } from './groups.js';
import { maxResults, userSchema } from './users.js';

const meta = (baseUrl: string, resourceType: string, path: string) => ({
  resourceType,
  location: `${baseUrl}${path}`,
});

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri: `${baseUrl.replace(/\/scim\/v2$/, '')}/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Token del directorio',
        description:
          'Authorization: Bearer <token>: el propietario de la empresa lo crea en el portal (Empresa → Directorio)',
        primary: true,
      },
    ],
    meta: meta(baseUrl, 'ServiceProviderConfig', '/ServiceProviderConfig'),
  };
}

export function userResourceType(baseUrl: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    // RFC 7643 §8.6's text, which validators look for (the attributes' descriptions are the portal's).
    description: 'User Account',
    schema: userSchema,
    schemaExtensions: [],
    meta: meta(baseUrl, 'ResourceType', '/ResourceTypes/User'),
  };
}

export function groupResourceType(baseUrl: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'Group',
    name: 'Group',
    endpoint: '/Groups',
    description: 'Un grupo del directorio: las reglas de la empresa le dan puestos de una app o un rol',
    schema: groupSchema,
    schemaExtensions: [],
    meta: meta(baseUrl, 'ResourceType', '/ResourceTypes/Group'),
  };
}

/** The resource types by name, as /ResourceTypes lists them. */
export function resourceTypes(baseUrl: string) {
  return { User: userResourceType(baseUrl), Group: groupResourceType(baseUrl) } as Record<string, object>;
}

export function groupSchemaDocument(baseUrl: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id: groupSchema,
    name: 'Group',
    description: 'Un grupo del directorio de la empresa',
    attributes: [
      attribute('displayName', 'string', 'El nombre del grupo: el que nombran las reglas de la empresa', {
        required: true,
        uniqueness: 'server',
      }),
      attribute('externalId', 'string', 'El identificador del grupo en el directorio', { caseExact: true }),
      attribute('members', 'complex', 'Las personas del grupo: personas del directorio de la empresa', {
        multiValued: true,
        subAttributes: [
          attribute('value', 'string', 'El id de la persona en el directorio', { mutability: 'immutable' }),
          attribute('display', 'string', 'El userName de la persona', { mutability: 'readOnly' }),
          attribute('type', 'string', "Siempre 'User'", { canonicalValues: ['User'], mutability: 'immutable' }),
          attribute('$ref', 'reference', 'La dirección de la persona', {
            referenceTypes: ['User'],
            mutability: 'immutable',
          }),
        ],
      }),
    ],
    meta: meta(baseUrl, 'Schema', `/Schemas/${groupSchema}`),
  };
}

/** The schema documents by lower-cased URN, as /Schemas lists them. */
export function schemaDocuments(baseUrl: string) {
  return new Map<string, object>([
    [userSchema.toLowerCase(), userSchemaDocument(baseUrl)],
    [groupSchema.toLowerCase(), groupSchemaDocument(baseUrl)],
  ]);
}

const attribute = (
  name: string,
  type: string,
  description: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> => ({
  name,
  type,
  multiValued: false,
  description,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

export function userSchemaDocument(baseUrl: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id: userSchema,
    name: 'User',
    description: 'User Account', // RFC 7643 §8.7.1's
    attributes: [
      attribute('userName', 'string', 'El email de la persona, en uno de los dominios probados de la empresa', {
        required: true,
        uniqueness: 'server',
      }),
      attribute('externalId', 'string', 'El identificador de la persona en el directorio', { caseExact: true }),
      attribute('name', 'complex', 'El nombre de la persona', {
        subAttributes: [
          attribute('givenName', 'string', 'Nombre'),
          attribute('familyName', 'string', 'Apellido'),
          attribute('formatted', 'string', 'Nombre completo', { mutability: 'readOnly' }),
        ],
      }),
      attribute('displayName', 'string', 'El nombre que se muestra'),
      attribute('emails', 'complex', 'El email de trabajo: el mismo que userName', {
        multiValued: true,
        subAttributes: [
          attribute('value', 'string', 'El email'),
          attribute('type', 'string', "Siempre 'work'", { canonicalValues: ['work'] }),
          attribute('primary', 'boolean', 'Siempre true'),
        ],
      }),
      attribute(
        'active',
        'boolean',
        'false saca a la persona de la empresa: sus puestos quedan libres y sus sesiones terminan',
      ),
    ],
    meta: meta(baseUrl, 'Schema', `/Schemas/${userSchema}`),
  };
}
