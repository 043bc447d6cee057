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

/** The contracts' mark of a text refused when blank after trimming (`notBlank`). */
const NOT_BLANK_MARK = 'x-document-pattern';

/**
 * The top-level body fields a schema marks not-blank (its properties, and those of the members of
 * a union body), which are trimmed before validation: the mark promises that a text of only
 * spaces is refused, and trimmed it meets the field's `minLength` (400, naming the field).
 */
function notBlankFields(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as {
    properties?: Record<string, Record<string, unknown>>;
    anyOf?: unknown[];
    oneOf?: unknown[];
    allOf?: unknown[];
  };
  const own = Object.entries(node.properties ?? {})
    .filter(([, property]) => NOT_BLANK_MARK in property)
    .map(([name]) => name);
  const members = [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])];
  return [...new Set([...own, ...members.flatMap(notBlankFields)])];
}

/**
 * The one way request bodies are normalised: each route declares `config.normalize` (and every
 * field its body schema marks not-blank is trimmed), and this plugin runs it before validation,
 * so the schema judges (and the service stores) the normalised values. Other keys are left alone,
 * so closed schemas still refuse unknown fields.
 */
export const normalizeInput = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const declared = route.config?.normalize;
      const notBlank = notBlankFields(route.schema?.body);
      if (!declared && notBlank.length === 0) return;
      const rules: InputNormalization = {
        ...declared,
        trim: [...new Set([...(declared?.trim ?? []), ...notBlank])],
      };
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
