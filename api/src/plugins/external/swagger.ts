import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { documentHeaders } from './helmet.js';

/** For partner apps: what they receive and how to check it without calling the API. */
const partnerTokenGuide = [
  '## Token para apps asociadas',
  '',
  'Una app asociada (web o móvil) de la lista permitida recibe el parámetro `token` en su dirección. No es la sesión ' +
    'del portal: lo crea `POST /auth/partner-token` para ese destino y solo vale para leer la identidad y los planes ' +
    'de la persona (`GET /auth/user` y `POST /plan-usuario/user-app-plans` con su propio `idUsuario`); cualquier ' +
    'escritura o llamada de administración lo rechaza con 401 o 403, aunque sea de un administrador.',
  '',
  "Verificación sin llamar a la API (p. ej. con `jose`: `jwtVerify(token, createRemoteJWKSet(new URL('<API>/.well-known/jwks.json')), " +
    "{ issuer, audience, algorithms: ['ES256'], typ: 'partner+jwt' })`):",
  '',
  '- firma ES256 con una clave de `GET /.well-known/jwks.json` (por `kid`);',
  '- cabecera `typ: partner+jwt` (una sesión del portal lleva `typ: JWT` y no tiene `aud` ni `iss`: rechácela);',
  '- `iss` = la URL pública de esta API (`API_PUBLIC_URL`);',
  '- `aud` = el origen de su app web (`https://socio.example.com`, sin ruta) o el esquema de su enlace profundo (`betopro`);',
  '- `exp` en el futuro: vive `PARTNER_TOKEN_TTL_SECONDS` (1 h por defecto) y nunca más que la sesión de la que sale;',
  '- `sub` = id de la persona; `jti` único; `sid` y `tv` los usa la API.',
  '',
  'La verificación local no sabe de revocaciones: un cierre de sesión, un cambio de contraseña o una suspensión lo ' +
    'invalidan en la API al momento (`GET /auth/user` responde 401). Quien necesite saberlo al instante, que lo consulte.',
].join('\n');

/** For a company's IT: the directory's calls, which RFC 7643/7644 describe rather than this document's schemas. */
const scimGuide = [
  '## Directorio de una empresa (SCIM 2.0)',
  '',
  'Base `<API>/scim/v2`, con `Authorization: Bearer scim_…` (el token que el propietario crea en ' +
    '`POST /empresas/{id}/scim/tokens`, mostrado una sola vez). Respuestas y errores en `application/scim+json` ' +
    '(RFC 7644 §3.12: `{ schemas, status, scimType?, detail }`, con `detail` en español).',
  '',
  '- `GET /ServiceProviderConfig`, `GET /ResourceTypes`, `GET /Schemas`;',
  '- `GET /Users?filter=userName eq "…"&startIndex=1&count=100`, `POST /Users`, `GET|PUT|PATCH|DELETE /Users/{id}` ' +
    '(PatchOp con o sin `path`; `"False"`/`"True"` se leen como booleanos);',
  '- `active: false` o `DELETE` saca a la persona de la empresa: libera sus puestos y cierra sus sesiones en el portal y ' +
    'en las apps asociadas. Solo correos de dominios verificados de la empresa; sin grupos (`/Groups` responde 404).',
  '',
  'Guía para el equipo de TI: `docs/conectar-directorio.md`; las últimas peticiones, en `GET /empresas/{id}/scim/registro`.',
].join('\n');

export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Portal API',
          description:
            'API del portal de aplicaciones. Errores: `{ statusCode, message, code? }` con mensaje en español.\n\n' +
            partnerTokenGuide +
            '\n\n' +
            scimGuide,
          version: '0.1.0',
        },
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
      // Shared schemas appear under their own $id (ErrorResponse) instead of def-0, def-1...
      refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`) },
    });
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      // The UI is an HTML page with scripts (files, none inline) and styles, which the API's `default-src 'none'`
      // forbids. The plugin's policy asks browsers to upgrade to https, which breaks the page on a plain-http local
      // server, and lets the same origin frame it: nothing of the API may be framed.
      staticCSP: true,
      transformStaticCSP: (header) =>
        header
          .replace(/\s*upgrade-insecure-requests;?/, '')
          .replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
      // A page a browser shows: it gets helmet's document headers besides every answer's.
      uiHooks: {
        onRequest: (_request, reply, done) => {
          reply.headers(documentHeaders);
          done();
        },
      },
    });
  },
  { name: 'swagger' },
);
