import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteOptions } from '../index.js';

// TODO(owner of this resource): routes not implemented yet.
export const customerAccountRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async () => {};
export const customerProfileRoutes: FastifyPluginAsyncTypebox = async () => {};
