// The answers an operation can give because of how its route is declared, not because of what
// its handler does: the document lists them from the route's schema and config, so that no
// operation leaves one out (the contracts document the handler's own answers).
import { STATUS_CODES } from 'node:http';
import type { RouteOptions } from 'fastify';
import { isObject, type ResponseHeaders } from './openapi-components.js';

/**
 * A service's documented error responses for some statuses (the contracts' `errorResponseSet`,
 * e.g. `shopErrors`): the service's envelope with a description and an example per status.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route never needs the database and is never shed (liveness): no 503. */
    database?: boolean;
  }
}

export type ErrorResponses = (...statuses: number[]) => Record<number, unknown>;

const REQUEST_ID: ResponseHeaders = {
  'x-request-id': {
    type: 'string',
    description:
      'The request id: the incoming `X-Request-Id` when it is safe to echo, else a new one',
    required: true,
  },
};

const CACHE_HEADERS: ResponseHeaders = {
  etag: {
    type: 'string',
    description: 'Strong entity tag of the answer; send it back in `If-None-Match`',
    required: true,
  },
  'cache-control': {
    type: 'string',
    description: 'How the answer may be kept and reused',
    required: true,
  },
};

/**
 * Statuses a route answers by its declaration: 400 for any request part it validates (every
 * documented route has a query string: unknown parameters are refused) or a malformed body, 413
 * and 415 for a body (which Fastify reads on every method but GET and HEAD),
 * 401 unless public, 403 when its auth scheme may refuse a caller it knows, 429 unless the rate limit is off, 503 unless `config.database` is false (the
 * database unreachable, or the service overloaded) and 304 for a cached GET.
 */
export function impliedStatuses(
  route: Pick<RouteOptions, 'schema' | 'config' | 'method'>,
): number[] {
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  // Fastify reads the body of every request but a GET or HEAD (a DELETE's too, when it has one).
  const readsBody = [route.method].flat().some((method) => method !== 'GET' && method !== 'HEAD');
  const config = (route.config ?? {}) as {
    auth?: string;
    forbids?: boolean;
    cache?: string;
    rateLimit?: unknown;
    database?: boolean;
  };
  const validates =
    readsBody || ['body', 'querystring', 'params', 'headers'].some((part) => schema[part]);
  return [
    ...(config.cache ? [304] : []),
    ...(validates ? [400] : []),
    ...(config.auth !== undefined && config.auth !== 'none' ? [401] : []),
    ...(config.forbids ? [403] : []),
    ...(readsBody ? [413, 415] : []),
    ...(config.rateLimit === false ? [] : [429]),
    ...(config.database === false ? [] : [503]),
  ];
}

/**
 * The route's responses with the implied ones it does not document itself: errors from
 * `errors` (or a bare description when the service gives none), a 304 without a body.
 */
export function withImpliedResponses(
  route: Pick<RouteOptions, 'schema' | 'config' | 'method'>,
  errors?: ErrorResponses,
): Record<string, unknown> {
  const declared = isObject(route.schema?.response) ? route.schema.response : {};
  const missing = impliedStatuses(route).filter((status) => declared[status] === undefined);
  const errorStatuses = missing.filter((status) => status !== 304);
  const added: Record<string, unknown> = errors
    ? errors(...errorStatuses)
    : Object.fromEntries(
        errorStatuses.map((status) => [status, { description: STATUS_CODES[status] }]),
      );
  if (missing.includes(304)) {
    added[304] = {
      description:
        'Not modified: the answer is still the one whose `ETag` was sent in `If-None-Match` (no body)',
      type: 'null',
    };
  }
  return { ...declared, ...added };
}

/**
 * The headers every answer of the route carries, by status: `X-Request-Id` always; a cached
 * route's 200 and 304 its `ETag` and `Cache-Control`.
 */
export function standardHeaders(route: Pick<RouteOptions, 'config'>) {
  const cached = Boolean((route.config as { cache?: string } | undefined)?.cache);
  return (status: string): ResponseHeaders =>
    cached && (status === '200' || status === '304')
      ? { ...CACHE_HEADERS, ...REQUEST_ID }
      : REQUEST_ID;
}
