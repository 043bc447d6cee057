import type {
  FastifyContextConfig,
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
    /** Set by routeAuth when the route's scheme may refuse a caller it knows (a documented 403). */
    forbids?: boolean;
  }
}

export interface AuthScheme {
  /** Resolves when the request may proceed (and may set the signed-in account); throws a 401/403. */
  check: (request: FastifyRequest) => Promise<void>;
  /**
   * The OpenAPI security requirement of routes using this scheme, or of one route given its
   * config (a scheme whose requirement depends on the route, e.g. the scope it declares).
   */
  security:
    Array<Record<string, string[]>> | ((route: DeclaredRoute) => Array<Record<string, string[]>>);
  /** Who may call a route using this scheme, a sentence added to its OpenAPI description. */
  describe?: (route: DeclaredRoute) => string;
  /** The check may refuse a caller it has recognised (403): every route using it documents it. */
  mayForbid?: boolean;
}

/** What a scheme's documentation may depend on: the route's declaration. */
export interface DeclaredRoute {
  config: FastifyContextConfig;
  method: string | string[];
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
        // The scheme's own promise: no async wrapper around it.
        const check: onRequestAsyncHookHandler = (request) => scheme.check(request);
        hooks.push(check);
      }
      route.onRequest = [...hooks, ...toArray(route.onRequest)];
      if (scheme?.mayForbid) route.config = { ...config, forbids: true };
      if (route.schema) {
        const declared = { config, method: route.method };
        const security =
          typeof scheme?.security === 'function' ? scheme.security(declared) : scheme?.security;
        const access = scheme?.describe?.(declared);
        const { description } = route.schema as { description?: string };
        route.schema = {
          ...route.schema,
          security: security ?? [],
          ...(access
            ? { description: [description, `**Access:** ${access}`].filter(Boolean).join('\n\n') }
            : {}),
        };
      }
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
