import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type CompanyRole, roles } from '../../db/schema.js';
import { type CompanyAccess, companyStatus, memberAccess } from '../../domain/companies/access.js';
import { companyMessages } from '../../domain/companies/messages.js';
import { HttpError } from '../../lib/errors.js';
import { signedIn } from './authentication.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * An onRequest hook for routes under /empresas/:id, after `authenticate`: lets through a platform administrator
     * (with `requireAdmin`'s checks) or an active member of that active company with at least `least`, read from the
     * database at each request; sets `request.company`. Everyone else gets 403 before the body is read, whatever the
     * company's id, so nobody outside a company learns whether it exists.
     */
    companyRole(least: CompanyRole): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    company: CompanyAccess | null;
  }
}

/** The company a route under `companyRole` acts on. */
export function companyOf(request: FastifyRequest): CompanyAccess {
  if (!request.company) throw new HttpError(404, companyMessages.companyNotFound, 'EMPRESA_NO_ENCONTRADA');
  return request.company;
}

const idPattern = /^[1-9][0-9]{0,9}$/;

/** The `:id` of the URL as a company id, or undefined for anything that cannot be one. */
function companyIdOf(request: FastifyRequest): number | undefined {
  const raw = (request.params as { id?: unknown } | undefined)?.id;
  if (typeof raw !== 'string' || !idPattern.test(raw)) return undefined;
  const id = Number(raw);
  return id <= 2_147_483_647 ? id : undefined;
}

export default fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('company', null);
    app.decorate('companyRole', (least: CompanyRole) => {
      return async function companyRole(request: FastifyRequest, reply: FastifyReply) {
        const auth = signedIn(request);
        const companyId = companyIdOf(request);
        if (auth.kind === 'session' && auth.user.role === roles.admin) {
          await app.requireAdmin(request, reply);
          // A malformed id is left to the route's schema, which answers the administrator with a 400.
          if (companyId === undefined) return;
          const status = await companyStatus(app.db, companyId);
          if (!status) throw new HttpError(404, companyMessages.companyNotFound, 'EMPRESA_NO_ENCONTRADA');
          request.company = { companyId, platform: true, role: null, status };
          return;
        }
        if (auth.kind !== 'session' || companyId === undefined) {
          throw new HttpError(403, companyMessages.notCompanyManager, 'FORBIDDEN');
        }
        request.company = await memberAccess(app.db, auth.user.id, companyId, least);
      };
    });
  },
  { name: 'company-access', dependencies: ['authentication', 'database'] },
);
