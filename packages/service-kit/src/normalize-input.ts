import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';

export interface InputNormalization {
  /** Text fields trimmed, so that length rules apply to what is stored ("   " is empty). */
  trim?: readonly string[];
  /** E-mail fields trimmed and lower-cased before validation, storage and comparison. */
  email?: readonly string[];
  /** Fields the service owns, dropped so that a record sent back unchanged is not refused. */
  drop?: readonly string[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How this route's top-level body fields are normalised before validation. */
    normalize?: InputNormalization;
  }
}

/**
 * The one way request bodies are normalised: each route declares `config.normalize`, and this
 * plugin runs it before validation, so the schema judges (and the service stores) the normalised
 * values. Other keys are left alone, so closed schemas still refuse unknown fields.
 */
export const normalizeInput = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const rules = route.config?.normalize;
      if (!rules) return;
      const hook: preValidationHookHandler = (request, _reply, done) => {
        const body = request.body;
        if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
          normalize(body as Record<string, unknown>, rules);
        }
        done();
      };
      const existing = route.preValidation;
      route.preValidation = [hook, ...(existing ? [existing].flat() : [])];
    });
  },
  { name: 'normalize-input' },
);

function normalize(record: Record<string, unknown>, rules: InputNormalization): void {
  for (const field of rules.drop ?? []) delete record[field];
  for (const field of rules.trim ?? []) {
    const value = record[field];
    if (typeof value === 'string') record[field] = value.trim();
  }
  for (const field of rules.email ?? []) {
    const value = record[field];
    if (typeof value === 'string') record[field] = value.trim().toLowerCase();
  }
}
