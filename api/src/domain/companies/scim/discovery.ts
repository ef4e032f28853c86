// What a directory reads before syncing (RFC 7644 §4): the same for every company, no company data.
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
