import { badRequest } from '@dogshop/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * PostgreSQL text cannot hold the character U+0000, so a string carrying it anywhere in the body,
 * query or path is refused with a 400 naming the field, before it can reach the database (where
 * it would fail the query). Walks with its own stack: bodies may nest deeply.
 */
export const rejectNul = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      const parts = { body: request.body, querystring: request.query, params: request.params };
      for (const [part, value] of Object.entries(parts)) {
        const field = fieldWithNul(value);
        if (field !== undefined) {
          throw badRequest(`${[part, ...field].join('.')} must not contain the character U+0000`);
        }
      }
    });
  },
  { name: 'reject-nul' },
);

/** The path to the first string (or key) containing U+0000, or undefined. */
function fieldWithNul(root: unknown): string[] | undefined {
  const pending: Array<{ value: unknown; path: string[] }> = [{ value: root, path: [] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key.includes('\u0000')) return [...path, JSON.stringify(key)];
        pending.push({ value: child, path: [...path, key] });
      }
    }
  }
  return undefined;
}
