import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import fp from 'fastify-plugin'

export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Portal API',
        description: 'API del portal de aplicaciones. Errores: `{ statusCode, message, code? }` con mensaje en español.',
        version: '0.1.0',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    // Shared schemas appear under their own $id (ErrorResponse) instead of def-0, def-1...
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`) },
  })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The UI is an HTML page with scripts (files, none inline) and styles, which the API's `default-src 'none'`
    // forbids. The plugin's policy asks browsers to upgrade to https, which breaks the page on a plain-http local
    // server, and lets the same origin frame it: nothing of the API may be framed.
    staticCSP: true,
    transformStaticCSP: (header) => header
      .replace(/\s*upgrade-insecure-requests;?/, '')
      .replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
  })
}, { name: 'swagger' })
