import type {
  FastifyInstance,
  FastifyRequest,
  onRequestAsyncHookHandler,
  onRequestHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { PRIVATE_NO_STORE } from './no-store.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call this route: the name of one of the service's auth schemes, or 'none' for a
     * public route. Every route registered after `routeAuth` must say, so that no route is
     * public by omission.
     */
    auth?: string;
    /** The answer carries a token or personal data: `Cache-Control: private, no-store`. */
    personal?: boolean;
  }
}

export interface AuthScheme {
  /** Resolves when the request may proceed (and may set the signed-in account); throws a 401/403. */
  check: (request: FastifyRequest) => Promise<void>;
  /** The OpenAPI security requirement of routes using this scheme. */
  security: Array<Record<string, string[]>>;
}

export interface RouteAuthOptions {
  schemes: Record<string, AuthScheme>;
}

/**
 * Auth declared on each route (`config: { auth: 'apiKey' }`), checked in one place: the check
 * runs first in the route's onRequest hooks and the same declaration writes the route's
 * `security` in the OpenAPI document, so the two cannot disagree. `personal: true` adds
 * `Cache-Control: private, no-store` to every answer of the route, errors included.
 */
export const routeAuth = fp<RouteAuthOptions>(
  async (app: FastifyInstance, opts) => {
    app.addHook('onRoute', (route) => {
      const config = route.config ?? {};
      const name = config.auth;
      const where = `${[route.method].flat().join(',')} ${route.url}`;
      if (name === undefined) {
        throw new Error(`${where}: declare config.auth ('none' if public)`);
      }
      const scheme = name === 'none' ? undefined : opts.schemes[name];
      if (name !== 'none' && !scheme) {
        throw new Error(`${where}: unknown auth scheme '${name}'`);
      }
      const hooks: Array<onRequestHookHandler | onRequestAsyncHookHandler> = [];
      if (config.personal) hooks.push(noStore);
      if (scheme) {
        const check: onRequestAsyncHookHandler = async (request) => {
          await scheme.check(request);
        };
        hooks.push(check);
      }
      route.onRequest = [...hooks, ...toArray(route.onRequest)];
      if (route.schema) route.schema = { ...route.schema, security: scheme?.security ?? [] };
    });
  },
  { name: 'route-auth' },
);

// Set before any check, so that a 401 of a personal route is not cacheable either.
const noStore: onRequestHookHandler = (_request, reply, done) => {
  reply.header('cache-control', PRIVATE_NO_STORE);
  done();
};

const toArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
