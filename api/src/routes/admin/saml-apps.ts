import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  createSamlApp,
  deleteSamlApp,
  listSamlApps,
  samlAppView,
  updateSamlApp,
} from '../../domain/identity-provider/saml/apps.js';
import { signedIn } from '../../plugins/app/authentication.js';
import { adminErrors, bearerSecurity as security, ErrorRef } from '../../schemas/common.js';
import { SamlApp, SamlAppBody, SamlAppChangeBody, SamlAppCreated, SamlAppIdParams } from '../../schemas/saml-idp.js';

const tags = ['admin'];
/** A metadata document of up to 1 MiB, escaped as JSON. */
const metadataBodyLimit = 3 * 1024 * 1024;

/**
 * The SAML apps, under /admin/aplicaciones-saml (administrators only, from the parent scope): registered from their
 * service provider metadata, every change audited.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  // A portal served over http (a trial) takes partners served over http too; otherwise only https (and loopback).
  const httpAllowed = app.config.apiPublicUrl.startsWith('http:');

  app.get(
    '',
    {
      schema: {
        summary: 'Las aplicaciones SAML registradas',
        tags,
        security,
        response: { 200: Type.Object({ data: Type.Array(SamlApp) }), ...adminErrors },
      },
    },
    async () => ({ data: await listSamlApps(app.db) }),
  );

  app.get(
    '/:id',
    {
      schema: {
        summary: 'Una aplicación SAML',
        tags,
        security,
        params: SamlAppIdParams,
        response: { 200: SamlApp, 404: ErrorRef, ...adminErrors },
      },
    },
    async (request) => samlAppView(app.db, request.params.id),
  );

  app.post(
    '',
    {
      bodyLimit: metadataBodyLimit,
      schema: {
        summary: 'Registra una aplicación SAML con los metadatos de su proveedor de servicio',
        tags,
        security,
        body: SamlAppBody,
        response: { 201: SamlAppCreated, 409: ErrorRef, ...adminErrors },
      },
    },
    async (request, reply) => {
      const row = await createSamlApp(app.db, signedIn(request), request.body, httpAllowed);
      return reply.code(201).send({ id: row.id, entityId: row.entityId });
    },
  );

  app.put(
    '/:id',
    {
      bodyLimit: metadataBodyLimit,
      schema: {
        summary:
          'Cambia una aplicación SAML (nombre, metadatos y app del catálogo; sin metadatos se conservan los guardados)',
        tags,
        security,
        params: SamlAppIdParams,
        body: SamlAppChangeBody,
        response: { 200: SamlApp, 404: ErrorRef, 409: ErrorRef, ...adminErrors },
      },
    },
    async (request) => updateSamlApp(app.db, signedIn(request), request.params.id, request.body, httpAllowed),
  );

  app.delete(
    '/:id',
    {
      schema: {
        summary: 'Elimina una aplicación SAML',
        tags,
        security,
        params: SamlAppIdParams,
        response: { 204: Type.Null({ description: 'Aplicación SAML eliminada' }), 404: ErrorRef, ...adminErrors },
      },
    },
    async (request, reply) => {
      await deleteSamlApp(app.db, signedIn(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};

export default routes;
