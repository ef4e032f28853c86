import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import appRoleRoutes from './app-roles.js';
import auditStreamRoutes from './audit-streams.js';
import companyRoutes from './company.js';
import directoryGroupRoutes from './directory-groups.js';
import domainRoutes from './domains.js';
import invitationRoutes from './invitations.js';
import memberRoutes from './members.js';
import ssoRoutes from './sso.js';
import scimRoutes from './scim.js';
import seatRoutes from './seats.js';
import setupLinkRoutes from './setup-links.js';

/**
 * A company's own calls, under /empresas: what its owners and administrators manage (members, invitations, seats,
 * domains, its audit log and seat report) and what a person does with an invitation. Platform administrators may call
 * every one of them for any company (plugins/app/company-access.ts).
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);
  app.register(companyRoutes);
  app.register(domainRoutes);
  app.register(invitationRoutes);
  app.register(memberRoutes);
  app.register(ssoRoutes);
  app.register(seatRoutes);
  app.register(scimRoutes);
  app.register(setupLinkRoutes);
  app.register(directoryGroupRoutes);
  app.register(appRoleRoutes);
  app.register(auditStreamRoutes);
};

export default routes;
