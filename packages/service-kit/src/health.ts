import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The tag of the health and readiness operations (the document declares it with the API's own). */
export const OPERATIONS_TAG = { name: 'Operations', description: 'Health and readiness' };

export interface HealthOptions {
  /** Resolves true when the database answers. */
  isReady: () => Promise<boolean>;
}

/** `/health` (process alive) and `/ready` (database reachable, else 503); no auth, not rate limited. */
export const healthRoutes = fp<HealthOptions>(
  async (app: FastifyInstance, opts) => {
    const started = Date.now();
    // Documentation keywords (operationId, description, examples) only feed the OpenAPI document.
    const statusBody = (description: string, example: Record<string, unknown>) => ({
      type: 'object',
      description,
      properties: { status: { type: 'string' }, uptime_s: { type: 'number' } },
      examples: [example],
    });
    const operation = (operationId: string, summary: string, description: string) => ({
      tags: [OPERATIONS_TAG.name],
      operationId,
      summary,
      description,
      security: [],
    });
    const noLimit = { rateLimit: false, auth: 'none' } as const;
    const health = {
      ...operation(
        'getHealth',
        'Process is alive',
        'Answers 200 while the process runs (liveness); no auth, not rate limited.',
      ),
      response: { 200: statusBody('The process is alive', { status: 'ok', uptime_s: 3600 }) },
    };
    const ready = {
      ...operation(
        'getReadiness',
        'Database is reachable',
        'Answers 200 when the database answers, else 503 (readiness); no auth, not rate limited.',
      ),
      response: {
        200: statusBody('The database answers', { status: 'ready' }),
        503: statusBody(
          'The database does not answer (`unavailable`), or the service is overloaded (`overloaded`)',
          {
            status: 'unavailable',
          },
        ),
      },
    };
    // Liveness never needs the database (nor is it shed under load): it never answers 503.
    app.get('/health', { schema: health, config: { ...noLimit, database: false } }, async () => ({
      status: 'ok',
      uptime_s: Math.round((Date.now() - started) / 1000),
    }));
    app.get('/ready', { schema: ready, config: noLimit }, async (_req, reply) => {
      const up = await opts.isReady().catch(() => false);
      return reply.code(up ? 200 : 503).send({ status: up ? 'ready' : 'unavailable' });
    });
  },
  { name: 'health-routes' },
);
