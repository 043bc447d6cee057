import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const EMAIL_FIELDS = ['email', 'customer_email'] as const;

/**
 * E-mail addresses are trimmed and lower-cased before validation, storage and comparison, so
 * " Ann@Example.COM " registers, logs in, orders and subscribes as "ann@example.com".
 */
export const normalizeEmail = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      const body = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
      const record = body as Record<string, unknown>;
      for (const field of EMAIL_FIELDS) {
        const value = record[field];
        if (typeof value === 'string') record[field] = value.trim().toLowerCase();
      }
    });
  },
  { name: 'normalize-email' },
);
