import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Platform administrators' calls about customer companies, under /admin/empresas: the companies and their licences. */
const routes: FastifyPluginAsyncTypebox = async (_app) => {};

export default routes;
