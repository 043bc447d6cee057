import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const shared: Options = { allErrors: false, strict: false, useDefaults: true };

/**
 * Plain decimal notation, the only one accepted for numbers in paths and query strings: no hex,
 * exponent, `+`, whitespace or leading zeros (one canonical URL per record), and no `-0`.
 * Ajv's coercion alone would take anything JavaScript's `Number()` reads.
 */
export const PLAIN_DECIMAL = {
  integer: /^(?:0|-?[1-9][0-9]*)$/,
  number: /^(?!-0(?:\.0+)?$)-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/,
} as const;

/** Keyword of the validation error the plain-decimal rule raises (for translations). */
export const PLAIN_DECIMAL_KEYWORD = 'plainDecimal';

type NumericKind = keyof typeof PLAIN_DECIMAL;
type SchemaNode = Record<string, unknown>;

/** The query string of a documented route that declares none: no parameters at all. */
const NO_QUERY = { type: 'object', properties: {}, additionalProperties: false } as const;

/**
 * Two validators: query strings, params and headers arrive as text and are coerced to the declared
 * types; JSON bodies are validated strictly (a string where a number goes is a 400, not coerced),
 * and unknown properties are refused (the schemas say `additionalProperties: false`). Bodies are
 * JSON only: Fastify's built-in text/plain parser is removed, so other types answer 415.
 * Numbers in params and query strings must be written in plain decimal notation. One rule for
 * query parameters: every documented route refuses those it does not declare (a query string
 * schema that says nothing is closed, a route without one gets one that allows none), as the
 * closed body schemas refuse unknown fields.
 */
export function useStrictValidation(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { hide?: boolean; querystring?: Record<string, unknown> };
    if (!schema || schema.hide) return;
    const querystring = closedQuery(schema.querystring);
    if (querystring !== schema.querystring) route.schema = { ...route.schema, querystring };
  });
  const { coercing, strict } = validators();
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler<FastifySchema>(({ schema, httpPart }) => {
    if (httpPart === 'body') return strict.compile(schema as object);
    const validate = coercing.compile(schema as object);
    return httpPart === 'params' || httpPart === 'querystring'
      ? withPlainDecimals(validate, schema)
      : validate;
  });
}

// One pair of Ajv instances per process, and one closed copy of each query schema: Ajv keeps a
// compiled validator by its schema object, so an app built again in the same process (the tests
// build hundreds) reuses them instead of compiling every route's schemas again.
let ajv: { coercing: Ajv; strict: Ajv } | undefined;
const closedQueries = new WeakMap<object, object>();

function validators(): { coercing: Ajv; strict: Ajv } {
  ajv ??= {
    coercing: addFormats(new Ajv({ ...shared, coerceTypes: 'array', removeAdditional: false })),
    strict: addFormats(new Ajv({ ...shared, coerceTypes: false, removeAdditional: false })),
  };
  return ajv;
}

function closedQuery(query: Record<string, unknown> | undefined): object {
  if (query === undefined) return NO_QUERY;
  if (query.additionalProperties !== undefined) return query;
  let closed = closedQueries.get(query);
  if (!closed) closedQueries.set(query, (closed = { ...query, additionalProperties: false }));
  return closed;
}

/**
 * Wraps a coercing validator so that the raw text of every integer/number property is checked
 * before Ajv converts it. The numeric properties are found once, at compile time; a schema
 * without any gets its validator back unchanged.
 */
export function withPlainDecimals(validate: ValidateFunction, schema: unknown): ValidateFunction {
  const numeric = numericProperties(schema);
  if (numeric.length === 0) return validate;
  const ajvValidate = validate as (data: unknown, context?: unknown) => boolean;
  const checked = function (data: unknown, context?: unknown) {
    const error = data !== null && typeof data === 'object' ? firstLoose(data, numeric) : undefined;
    if (error) {
      checked.errors = [error];
      return false;
    }
    const valid = ajvValidate(data, context);
    checked.errors = validate.errors;
    return valid;
  } as ValidateFunction;
  // Fastify hands Ajv validators their parent (to coerce a root value) when it sees schemaEnv.
  return Object.assign(checked, { schema: validate.schema, schemaEnv: validate.schemaEnv });
}

function firstLoose(data: object, numeric: Array<[string, NumericKind]>): ErrorObject | undefined {
  for (const [name, kind] of numeric) {
    const raw = (data as Record<string, unknown>)[name];
    if (typeof raw === 'string') {
      if (!PLAIN_DECIMAL[kind].test(raw)) return looseNumber(`/${name}`, kind);
    } else if (Array.isArray(raw)) {
      // Repeated query parameters arrive as an array of texts.
      for (let i = 0; i < raw.length; i += 1) {
        const item: unknown = raw[i];
        if (typeof item === 'string' && !PLAIN_DECIMAL[kind].test(item)) {
          return looseNumber(`/${name}/${i}`, kind);
        }
      }
    }
  }
  return undefined;
}

function looseNumber(instancePath: string, kind: NumericKind): ErrorObject {
  return {
    keyword: PLAIN_DECIMAL_KEYWORD,
    instancePath,
    schemaPath: `#/properties${instancePath.replace(/\/\d+$/, '')}/type`,
    params: { type: kind },
    message: `must be a plain decimal ${kind}`,
  };
}

/** Top-level properties whose values must be numbers (directly, or as array items). */
function numericProperties(schema: unknown): Array<[string, NumericKind]> {
  const properties = (schema as SchemaNode | undefined)?.properties;
  if (properties === null || typeof properties !== 'object') return [];
  const found: Array<[string, NumericKind]> = [];
  for (const [name, property] of Object.entries(properties as Record<string, SchemaNode>)) {
    const kind = numericKind(property) ?? numericKind(property.items as SchemaNode | undefined);
    if (kind) found.push([name, kind]);
  }
  return found;
}

/**
 * 'integer' or 'number' when every value the schema allows is numeric (null aside); undefined
 * when a text would also do, so that such a property is left to Ajv.
 */
function numericKind(schema: SchemaNode | undefined): NumericKind | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const branches = (schema.anyOf ?? schema.oneOf) as SchemaNode[] | undefined;
  if (Array.isArray(branches)) {
    const kinds = branches
      .filter((branch) => branch?.type !== 'null')
      .map((branch) => numericKind(branch));
    if (kinds.length === 0 || kinds.includes(undefined)) return undefined;
    return kinds.includes('number') ? 'number' : 'integer';
  }
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (type) => type !== 'null',
  );
  if (types.length === 0 || !types.every((type) => type === 'integer' || type === 'number')) {
    return undefined;
  }
  return types.includes('number') ? 'number' : 'integer';
}
