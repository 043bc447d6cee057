import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from './http-error.js';

export interface RejectNulOptions {
  /** The 400 text for a field such as `body.name` (English by default). */
  message?: (field: string) => string;
}

/**
 * U+0000 is refused anywhere in the body, query or path with a 400 naming the field: PostgreSQL
 * text cannot hold it, and one rule for both services keeps stores and exports (CSV drops it,
 * JSON keeps it) from disagreeing. Walks with its own stack: bodies may nest deeply.
 */
export const rejectNul = fp<RejectNulOptions>(
  async (app: FastifyInstance, opts) => {
    const message =
      opts.message ?? ((field: string) => `${field} must not contain the character U+0000`);
    // Callback style, and no walk of an empty part: every request of every route passes here.
    app.addHook('preValidation', (request, _reply, done) => {
      for (const part of PARTS) {
        const value = part === 'body' ? request.body : request[part];
        const field = value === undefined || value === null ? undefined : fieldWithNul(value);
        if (field !== undefined) {
          done(badRequest(message([LABEL[part], ...field].join('.'))));
          return;
        }
      }
      done();
    });
  },
  { name: 'reject-nul' },
);

/** The request's parts in the order they are checked, and how a message names each. */
const PARTS = ['body', 'query', 'params'] as const;
const LABEL = { body: 'body', query: 'querystring', params: 'params' } as const;

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
