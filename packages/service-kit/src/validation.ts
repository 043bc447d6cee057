import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const shared: Options = { allErrors: false, strict: false, useDefaults: true };

/**
 * Two validators: query strings, params and headers arrive as text and are coerced to the declared
 * types; JSON bodies are validated strictly (a string where a number goes is a 400, not coerced),
 * and unknown properties are refused (the schemas say `additionalProperties: false`). Bodies are
 * JSON only: Fastify's built-in text/plain parser is removed, so other types answer 415.
 */
export function useStrictValidation(app: FastifyInstance): void {
  const coercing = addFormats(
    new Ajv({ ...shared, coerceTypes: 'array', removeAdditional: false }),
  );
  const strict = addFormats(new Ajv({ ...shared, coerceTypes: false, removeAdditional: false }));
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler<FastifySchema>(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema as object),
  );
}
