import type { FastifyInstance } from 'fastify';
import { commonErrors, ErrorRef } from '../../schemas/common.js';

/** What an administrator-only route documents besides its own answers: 401 without a session, 403 for others. */
export const adminErrors = { 401: ErrorRef, 403: ErrorRef, ...commonErrors };

/** The OpenAPI security of a route that takes the bearer token. */
export const bearerSecurity = [{ bearerAuth: [] }];

/**
 * Makes every route of this plugin's scope administrator-only: a session is required (401 without one) and must be an
 * administrator's (403, the account's role read at each request). The one role check of the admin routes.
 */
export function adminOnly(app: FastifyInstance): void {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', app.requireAdmin);
}
