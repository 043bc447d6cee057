import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface HealthOptions {
  /** Resolves true when the database answers. */
  isReady: () => Promise<boolean>;
}

/** `/health` (process alive) and `/ready` (database reachable, else 503); no auth, not rate limited. */
export const healthRoutes = fp<HealthOptions>(
  async (app: FastifyInstance, opts) => {
    const started = Date.now();
    const schema = (summary: string) => ({
      tags: ['Operations'],
      summary,
      security: [],
      response: {
        200: {
          type: 'object',
          properties: { status: { type: 'string' }, uptime_s: { type: 'number' } },
        },
        503: { type: 'object', properties: { status: { type: 'string' } } },
      },
    });
    const noLimit = { rateLimit: false } as const;
    app.get('/health', { schema: schema('Process is alive'), config: noLimit }, async () => ({
      status: 'ok',
      uptime_s: Math.round((Date.now() - started) / 1000),
    }));
    app.get(
      '/ready',
      { schema: schema('Database is reachable'), config: noLimit },
      async (_req, reply) => {
        const ready = await opts.isReady().catch(() => false);
        return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable' });
      },
    );
  },
  { name: 'health-routes' },
);
