import type { FastifyInstance } from 'fastify';

export const PRIVATE_NO_STORE = 'private, no-store';

/**
 * `Cache-Control: private, no-store` on every answer of the routes in `scope` (errors included),
 * for answers that carry a token or personal data. A route that sets its own Cache-Control keeps it.
 */
export function privateNoStore(scope: FastifyInstance): void {
  scope.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', PRIVATE_NO_STORE);
    done(null, payload);
  });
}
