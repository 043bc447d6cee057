import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

// TODO(owner of this resource): routes not implemented yet.
export const orderRoutes: FastifyPluginAsyncTypebox = async () => {};
