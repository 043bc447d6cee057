// Property-based fuzzing from a committed OpenAPI 3.1 document (openapi/<service>.json): for every
// operation, fast-check generates requests from the operation's parameter and body schemas, valid
// ones and mutated ones (wrong types, missing and extra fields, boundary and huge numbers, long and
// unicode strings, `$`/`.` keys, prototype-pollution keys, operator objects, nested depth bombs),
// and every response is checked against the same document with Ajv (JSON Schema 2020-12).
// Both services' fuzz and attack tests use it (test/fuzz.test.ts, test/attacks.test.ts).
import { readFileSync } from 'node:fs';
import { expect } from '@jest/globals';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  default?: unknown;
}

interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: Schema;
}

interface Media {
  schema?: Schema;
}

export interface Operation {
  method: string;
  route: string;
  operationId: string;
  parameters: Parameter[];
  body?: Schema;
  /** Documented responses: status → media type → schema. */
  responses: Record<string, Record<string, Media>>;
  /** True when the operation takes a bearer token. */
  bearer: boolean;
  /** True when the operation declares no security at all (public). */
  public: boolean;
}

type OpenApiDocument = {
  security?: unknown[];
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

export function readDocument(url: URL): OpenApiDocument {
  return JSON.parse(readFileSync(url, 'utf8')) as OpenApiDocument;
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [route, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) continue;
      const op = raw as {
        operationId: string;
        parameters?: Parameter[];
        requestBody?: { content: Record<string, Media> };
        responses: Record<string, { content?: Record<string, Media> }>;
        security?: Array<Record<string, unknown>>;
      };
      const security = op.security ?? (doc.security as Array<Record<string, unknown>>) ?? [];
      operations.push({
        method: method.toUpperCase(),
        route,
        operationId: op.operationId,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content['application/json']?.schema,
        responses: Object.fromEntries(
          Object.entries(op.responses).map(([status, r]) => [status, r.content ?? {}]),
        ),
        bearer: security.some((s) => 'BearerAuth' in s),
        public: security.length === 0,
      });
    }
  }
  return operations;
}

/** A JSON token written as is (numbers JSON can carry but JavaScript cannot: 1e400, -0, 1E2). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON text of a generated value: RawJson tokens verbatim, own `__proto__` keys kept. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .map((k) => `${JSON.stringify(k)}:${toJsonText(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Sets a key as an own, enumerable property, even `__proto__`. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function clone<T>(value: T): T {
  if (Array.isArray(value)) return value.map(clone) as T;
  if (value !== null && typeof value === 'object' && !(value instanceof RawJson)) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwn(copy, key, clone((value as never)[key]));
    return copy as T;
  }
  return value;
}

/** Where a value sits in a request: `body.items[].price`, `path.id`, `query.limit`. */
export type Hint = (op: Operation, where: string) => fc.Arbitrary<unknown> | undefined;

const typesOf = (schema: Schema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];

const TEXT = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);

const EMAIL = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,15}$/),
    fc.stringMatching(/^[a-z0-9]{1,12}$/),
    fc.constantFrom('example.com', 'example.org', 'test.de'),
  )
  .map(([local, tag, domain]) => `${local}.${tag}@${domain}`);

/** Values that satisfy `schema` (hints, where given, supply known ids and consistent records). */
export function validValue(
  schema: Schema,
  op: Operation,
  hint: Hint,
  where: string,
): fc.Arbitrary<unknown> {
  const hinted = hint(op, where);
  const generic = genericValue(schema, op, hint, where);
  return hinted
    ? fc.oneof({ weight: 4, arbitrary: hinted }, { weight: 1, arbitrary: generic })
    : generic;
}

function genericValue(
  schema: Schema,
  op: Operation,
  hint: Hint,
  where: string,
): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => validValue(s, op, hint, where)));
  const types = typesOf(schema);
  if (types.length > 1) {
    return fc.oneof(...types.map((type) => validValue({ ...schema, type }, op, hint, where)));
  }
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = Math.ceil(schema.minimum ?? (schema.exclusiveMinimum ?? -(2 ** 31)) + 1e-9);
      const max = Math.floor(schema.maximum ?? 2 ** 31 - 1);
      return fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min, max: Math.min(max, min + 100) }) },
        { weight: 1, arbitrary: fc.integer({ min, max }) },
      );
    }
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum ?? -1e9) + 1e-6;
      const max = schema.maximum ?? 1e9;
      return fc.oneof(
        {
          weight: 2,
          arbitrary: fc
            .integer({ min: Math.ceil(min * 100), max: Math.floor(max * 100) })
            .map((c) => c / 100),
        },
        { weight: 1, arbitrary: fc.double({ min, max, noNaN: true, noDefaultInfinity: true }) },
      );
    }
    case 'string': {
      const minLength = schema.minLength ?? 0;
      const maxLength = Math.min(schema.maxLength ?? 60, minLength + 60);
      const fits = (s: string) =>
        s.length >= minLength && s.length <= (schema.maxLength ?? Infinity);
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
      if (schema.format === 'email') return EMAIL.filter(fits);
      if (schema.format === 'date-time') {
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString());
      }
      return fc.oneof(
        { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength, maxLength }) },
        { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength, maxLength }).filter(fits) },
      );
    }
    case 'array':
      return fc.array(validValue(schema.items ?? {}, op, hint, `${where}[]`), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, (schema.minItems ?? 0) + 5),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(
        Object.entries(properties).map(([key, s]) => [
          key,
          validValue(s, op, hint, `${where}.${key}`),
        ]),
      );
      const record = fc.record(model, { requiredKeys: schema.required ?? [] });
      const min = schema.minProperties ?? 0;
      return min > 0 ? record.filter((r) => Object.keys(r).length >= min) : record;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

// ---------------------------------------------------------------------------------------------
// Mutations: hostile variants of a valid value.

const LONG = 'x'.repeat(10_000);
/** Strings that break naive code: SQL and LIKE metacharacters, unicode edge cases, formulas. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  "' OR '1'='1",
  "'; DROP TABLE products; --",
  '" OR ""="',
  '\\',
  '%',
  '_%_',
  '$1',
  '1; SELECT pg_sleep(5)--',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\uffff',
  '🐕‍🦺🦮',
  'e\u0301',
  '\u202eevil',
  '\u200b',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'ßẞ',
  '=1+1',
  '@SUM(A1)',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '{"$ne":null}',
  LONG,
];
const HOSTILE_KEYS = [
  '$where',
  '$gt',
  '$ne',
  '$set',
  'a.b',
  '__proto__',
  'constructor',
  'prototype',
  'id',
  '_id',
  'role',
  'stock',
  'status',
  'created_at',
  'customer_id',
  'isAdmin',
  '',
];
const OPERATORS: unknown[] = [
  { $ne: null },
  { $gt: '' },
  { $regex: '.*' },
  { $where: 'sleep(100)' },
  { $exists: true },
  [{ $ne: 1 }],
];
const ANY_JSON: unknown[] = ['text', 0, -1, 1.5, true, false, null, [], {}, ['a'], { x: 1 }];

function numberEdges(schema: Schema): unknown[] {
  const edges: unknown[] = [
    0,
    -1,
    2 ** 31,
    2 ** 53 + 2,
    -(2 ** 53) - 2,
    1e308,
    -1e308,
    1e-9,
    0.125,
    12.345,
    new RawJson('1e400'),
    new RawJson('-1e400'),
    new RawJson('-0'),
    new RawJson('1E2'),
    new RawJson('100000000000000000000000000000'),
  ];
  if (schema.minimum !== undefined)
    edges.push(schema.minimum, schema.minimum - 1, schema.minimum - 0.5);
  if (schema.maximum !== undefined)
    edges.push(schema.maximum, schema.maximum + 1, schema.maximum + 0.01);
  if (schema.exclusiveMinimum !== undefined) edges.push(schema.exclusiveMinimum);
  return edges;
}

function stringEdges(schema: Schema): unknown[] {
  const edges = [...HOSTILE_STRINGS];
  if (schema.maxLength !== undefined)
    edges.push('y'.repeat(schema.maxLength + 1), 'é'.repeat(schema.maxLength + 1));
  if (schema.minLength !== undefined && schema.minLength > 0)
    edges.push('z'.repeat(schema.minLength - 1));
  return edges;
}

/** Nesting `depth` deep, as JSON text (a nested value that deep would overflow our own stack). */
function depthBomb(depth: number, kind: 'array' | 'object'): RawJson {
  return kind === 'array'
    ? new RawJson(`${'['.repeat(depth)}1${']'.repeat(depth)}`)
    : new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
}

interface Slot {
  path: Array<string | number>;
  schema: Schema;
  value: unknown;
}

/** Every place in `value` with the schema that describes it (the root included). */
function slotsOf(value: unknown, schema: Schema, path: Array<string | number> = []): Slot[] {
  const slots: Slot[] = [{ path, schema, value }];
  const resolved = schema.anyOf?.find((s) => typesOf(s).includes(jsonType(value))) ?? schema;
  if (Array.isArray(value)) {
    value.forEach((item, i) => slots.push(...slotsOf(item, resolved.items ?? {}, [...path, i])));
  } else if (value !== null && typeof value === 'object' && !(value instanceof RawJson)) {
    for (const key of Object.keys(value)) {
      const child = resolved.properties?.[key] ?? {};
      slots.push(...slotsOf((value as Record<string, unknown>)[key], child, [...path, key]));
    }
  }
  return slots;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function replaceAt(root: unknown, path: Array<string | number>, next: unknown): unknown {
  if (path.length === 0) return next;
  const copy = clone(root) as Record<string | number, unknown>;
  let cursor = copy;
  for (const key of path.slice(0, -1)) cursor = cursor[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (Array.isArray(cursor)) cursor[last as number] = next;
  else setOwn(cursor as Record<string, unknown>, String(last), next);
  return copy;
}

function schemaTypesAt(slot: Slot): string[] {
  const types = slot.schema.anyOf ? slot.schema.anyOf.flatMap(typesOf) : typesOf(slot.schema);
  return types.includes('number') ? [...types, 'integer'] : types;
}

export type MutationKind =
  'wrong-type' | 'edge-value' | 'drop-required' | 'extra-key' | 'operator' | 'depth-bomb' | 'root';

/** Hostile variants of a valid body (or any JSON value described by `schema`). */
export function mutatedValue(valid: fc.Arbitrary<unknown>, schema: Schema): fc.Arbitrary<unknown> {
  return valid.chain((value) => {
    const slots = slotsOf(value, schema);
    const pick = fc.constantFrom(...slots);
    const objects = slots.filter(
      (s) => s.value !== null && typeof s.value === 'object' && !Array.isArray(s.value),
    );
    const withRequired = objects.filter((s) =>
      (s.schema.required ?? []).some((k) => k in (s.value as object)),
    );
    const options: Array<fc.Arbitrary<unknown>> = [
      pick.chain((slot) =>
        fc
          .constantFrom(...ANY_JSON.filter((v) => !schemaTypesAt(slot).includes(jsonType(v))))
          .map((v) => replaceAt(value, slot.path, v)),
      ),
      pick.chain((slot) => {
        const types = schemaTypesAt(slot);
        const edges = types.includes('string')
          ? stringEdges(
              slot.schema.anyOf?.find((s) => typesOf(s).includes('string')) ?? slot.schema,
            )
          : types.includes('number') || types.includes('integer')
            ? numberEdges(
                slot.schema.anyOf?.find((s) =>
                  typesOf(s).some((t) => t === 'number' || t === 'integer'),
                ) ?? slot.schema,
              )
            : [...HOSTILE_STRINGS.slice(0, 4), ...numberEdges({}).slice(0, 4)];
        return fc.constantFrom(...edges).map((v) => replaceAt(value, slot.path, v));
      }),
      pick.chain((slot) =>
        fc.constantFrom(...OPERATORS).map((v) => replaceAt(value, slot.path, v)),
      ),
      pick.chain((slot) =>
        fc
          .tuple(
            fc.constantFrom(100, 1_000, 5_000),
            fc.constantFrom('array' as const, 'object' as const),
          )
          .map(([depth, kind]) => replaceAt(value, slot.path, depthBomb(depth, kind))),
      ),
      fc.constantFrom<unknown>(null, [], 'body', 42, true, {}, [value]),
    ];
    if (objects.length > 0) {
      options.push(
        fc
          .tuple(
            fc.constantFrom(...objects),
            fc.constantFrom(...HOSTILE_KEYS),
            fc.constantFrom<unknown>('x', 1, { polluted: true }, ...OPERATORS),
          )
          .map(([slot, key, extra]) => {
            const next = clone(slot.value) as Record<string, unknown>;
            setOwn(next, key, extra);
            return replaceAt(value, slot.path, next);
          }),
      );
    }
    if (withRequired.length > 0) {
      options.push(
        fc.constantFrom(...withRequired).chain((slot) =>
          fc
            .constantFrom(
              ...(slot.schema.required ?? []).filter((k) => k in (slot.value as object)),
            )
            .map((key) => {
              const next = clone(slot.value) as Record<string, unknown>;
              delete next[key];
              return replaceAt(value, slot.path, next);
            }),
        ),
      );
    }
    return fc.oneof(...options);
  });
}

// ---------------------------------------------------------------------------------------------
// Requests.

export interface GeneratedRequest {
  /** What was mutated ('none' for a request valid by the document). */
  mutated: 'none' | 'body' | 'path' | 'query' | 'header';
  method: string;
  url: string;
  headers: Record<string, string>;
  /** JSON text, when the operation has a body. */
  payload?: string;
}

const HOSTILE_PATH_SEGMENTS = [
  'abc',
  '-1',
  '0',
  '1.5',
  '1e3',
  '0x10',
  '99999999999999999999',
  "1' OR '1'='1",
  '1;DROP TABLE orders',
  '\u0000',
  'ß',
  '../1',
  ' ',
  'null',
  'NaN',
  'Infinity',
  '[]',
  '{"$ne":null}',
  'x'.repeat(150),
  '665f1c2ab4d3e8a1c2f0b12',
  '665f1c2ab4d3e8a1c2f0b1234',
  'zzzzzzzzzzzzzzzzzzzzzzzz',
];
/** Written into the URL without encoding: broken percent escapes and a raw traversal. */
const RAW_PATH_SEGMENTS = ['%E0%A4%A', '%', '%zz', '..%2F..%2Fetc', '%C0%AE%C0%AE'];

const HEADER_TEXT = fc.string({
  unit: fc.constantFrom(...'abcdefXYZ0123456789-_.:/ '.split('')),
  minLength: 1,
  maxLength: 40,
});

/** encodeURIComponent, with lone surrogates (which it refuses) sent as U+FFFD, as UTF-8 would. */
const encode = (text: string) =>
  encodeURIComponent(
    text.replace(
      /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '\ufffd',
    ),
  );

function scalarText(value: unknown): string {
  return value instanceof RawJson
    ? value.text
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);
}

/**
 * Requests for one operation: about half valid by the document, the rest with one part (body,
 * path, query or header) mutated. Auth headers are the caller's business (`headers`).
 */
export function requestsFor(op: Operation, hint: Hint): fc.Arbitrary<GeneratedRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const headerParams = op.parameters.filter((p) => p.in === 'header');

  const validPath = fc.record(
    Object.fromEntries(
      pathParams.map((p) => [
        p.name,
        validValue(p.schema, op, hint, `path.${p.name}`).map((v) => encode(scalarText(v))),
      ]),
    ),
  );
  const mutatedPath =
    pathParams.length === 0
      ? validPath
      : validPath.chain((valid) =>
          fc
            .tuple(
              fc.constantFrom(...pathParams.map((p) => p.name)),
              fc.oneof(
                { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_PATH_SEGMENTS).map(encode) },
                { weight: 1, arbitrary: fc.constantFrom(...RAW_PATH_SEGMENTS) },
                { weight: 1, arbitrary: TEXT.filter((s) => s.length > 0).map(encode) },
              ),
            )
            .map(([name, segment]) => ({ ...valid, [name]: segment })),
        );

  const optionalQuery = (p: Parameter) => !p.required || p.schema.default !== undefined;
  const validQuery = fc.record(
    Object.fromEntries(
      queryParams.map((p) => [
        p.name,
        validValue(p.schema, op, hint, `query.${p.name}`).map(scalarText),
      ]),
    ),
    { requiredKeys: queryParams.filter((p) => !optionalQuery(p)).map((p) => p.name) },
  ) as fc.Arbitrary<Record<string, string | string[]>>;
  const mutatedQuery = validQuery.chain((valid) => {
    const names = queryParams.map((p) => p.name);
    const edit: Array<fc.Arbitrary<Record<string, string | string[]>>> = [
      fc
        .tuple(
          fc.constantFrom('__proto__[x]', '$where', 'a.b', 'unknown', 'constructor'),
          fc.constantFrom('1', 'x', ''),
        )
        .map(([k, v]) => ({ ...valid, [k]: v })),
    ];
    if (names.length > 0) {
      const param = fc.constantFrom(...queryParams);
      edit.push(
        param.chain((p) =>
          fc
            .constantFrom(
              ...[
                ...(typesOf(p.schema).includes('string') || p.schema.anyOf
                  ? stringEdges(p.schema)
                  : numberEdges(p.schema)),
                'abc',
                '',
                'true',
                '1,2',
              ].map(scalarText),
            )
            .map((v) => ({ ...valid, [p.name]: v })),
        ),
        param.map((p) => ({ ...valid, [p.name]: ['1', '2'] })),
      );
    }
    return fc.oneof(...edit);
  });

  const validHeaders = fc.record(
    Object.fromEntries(headerParams.map((p) => [p.name, HEADER_TEXT])),
    { requiredKeys: headerParams.filter((p) => p.required).map((p) => p.name) },
  ) as fc.Arbitrary<Record<string, string>>;
  const mutatedHeaders =
    headerParams.length === 0
      ? validHeaders
      : fc
          .tuple(
            fc.constantFrom(...headerParams),
            fc.constantFrom('', ' ', 'k'.repeat(300), "' OR 1=1 --", '$ne'),
          )
          .map(([p, v]) => ({ [p.name]: v }));

  const validBody: fc.Arbitrary<unknown> = op.body
    ? validValue(op.body, op, hint, 'body')
    : fc.constant(undefined);
  const mutatedBody = op.body ? mutatedValue(validBody, op.body) : validBody;

  const assemble = (mutated: GeneratedRequest['mutated']) =>
    fc
      .record({
        path: mutated === 'path' ? mutatedPath : validPath,
        query: mutated === 'query' ? mutatedQuery : validQuery,
        headers: mutated === 'header' ? mutatedHeaders : validHeaders,
        body: mutated === 'body' ? mutatedBody : validBody,
      })
      .map(({ path, query, headers, body }): GeneratedRequest => {
        const url =
          op.route.replace(
            /\{(\w+)\}/g,
            (_m, name: string) => (path as Record<string, string>)[name] ?? '',
          ) + queryString(query);
        return {
          mutated,
          method: op.method,
          url,
          headers: { ...headers, ...(op.body ? { 'content-type': 'application/json' } : {}) },
          ...(op.body ? { payload: toJsonText(body) } : {}),
        };
      });

  const variants: Array<fc.WeightedArbitrary<GeneratedRequest>> = [
    { weight: 5, arbitrary: assemble('none') },
  ];
  if (op.body) variants.push({ weight: 5, arbitrary: assemble('body') });
  if (pathParams.length > 0) variants.push({ weight: 2, arbitrary: assemble('path') });
  variants.push({ weight: queryParams.length > 0 ? 2 : 1, arbitrary: assemble('query') });
  if (headerParams.length > 0) variants.push({ weight: 1, arbitrary: assemble('header') });
  return fc.oneof(...variants);
}

function queryString(query: Record<string, string | string[]>): string {
  const parts = Object.entries(query).flatMap(([k, v]) =>
    (Array.isArray(v) ? v : [v]).map((item) => `${encode(k)}=${encode(item)}`),
  );
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

// ---------------------------------------------------------------------------------------------
// Checking responses against the document.

export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

export interface ContractChecker {
  /**
   * Fails unless: not a 5xx; a 2xx is documented and its body valid against the documented
   * schema; a 4xx is in the error envelope (the operation's documented schema for that status,
   * else the service's envelope); no body carries a forbidden key or text.
   */
  check(op: Operation, request: GeneratedRequest, answer: Answer): void;
  /** Statuses seen per operation, for the summary and the coverage assertions. */
  seen: Map<string, Map<number, number>>;
}

export function contractChecker(opts: {
  /** The service's error envelope (e.g. `{success:false, error, status_code}`). */
  envelope: Schema;
  /** JSON keys no response may contain (password hashes, internal fields). */
  forbiddenKeys: string[];
  /** Texts no response may contain (hash prefixes, stack traces, driver names). */
  forbiddenText: Array<string | RegExp>;
  /** An envelope field that must repeat the HTTP status (the shop's `status_code`). */
  statusField?: string;
}): ContractChecker {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateFormats: true }));
  const cache = new Map<object, ValidateFunction>();
  const compile = (schema: object) => {
    let validate = cache.get(schema);
    if (!validate) {
      validate = ajv.compile(schema);
      cache.set(schema, validate);
    }
    return validate;
  };
  const envelope = compile(opts.envelope);
  const seen = new Map<string, Map<number, number>>();

  const fail = (op: Operation, request: GeneratedRequest, answer: Answer, why: string): never => {
    throw new Error(
      `${op.operationId}: ${why}\n  request: ${request.method} ${request.url} (${request.mutated} mutated)` +
        `\n  headers: ${JSON.stringify(request.headers)}` +
        (request.payload !== undefined ? `\n  body: ${request.payload.slice(0, 500)}` : '') +
        `\n  answer: ${answer.statusCode} ${answer.body.slice(0, 500)}`,
    );
  };

  const check = (op: Operation, request: GeneratedRequest, answer: Answer) => {
    const counts = seen.get(op.operationId) ?? new Map<number, number>();
    counts.set(answer.statusCode, (counts.get(answer.statusCode) ?? 0) + 1);
    seen.set(op.operationId, counts);

    if (answer.statusCode >= 500) fail(op, request, answer, `server error ${answer.statusCode}`);
    const contentType = String(answer.headers['content-type'] ?? '');
    const documented = op.responses[String(answer.statusCode)];
    for (const text of opts.forbiddenText) {
      if (typeof text === 'string' ? answer.body.includes(text) : text.test(answer.body)) {
        fail(op, request, answer, `response contains forbidden text ${String(text)}`);
      }
    }
    if (answer.statusCode >= 200 && answer.statusCode < 300) {
      if (!documented)
        fail(op, request, answer, `undocumented success status ${answer.statusCode}`);
      const mediaType = Object.keys(documented!).find((type) => contentType.startsWith(type));
      if (!mediaType) fail(op, request, answer, `undocumented content type ${contentType}`);
      if (mediaType !== 'application/json') return; // a CSV download: a string by its schema
      const body = parse(answer.body) ?? fail(op, request, answer, 'success body is not JSON');
      const validate = compile(documented![mediaType]!.schema as object);
      if (!validate(body)) {
        fail(
          op,
          request,
          answer,
          `success body breaks the contract: ${ajv.errorsText(validate.errors)}`,
        );
      }
      forbiddenKeys(op, request, answer, body);
      return;
    }
    if (answer.statusCode >= 400) {
      if (!contentType.startsWith('application/json'))
        fail(op, request, answer, `error is not JSON (${contentType})`);
      const body = parse(answer.body) ?? fail(op, request, answer, 'error body is not JSON');
      const schema = documented?.['application/json']?.schema;
      const validate = schema ? compile(schema as object) : envelope;
      if (!validate(body)) {
        fail(
          op,
          request,
          answer,
          `error body is not the envelope: ${ajv.errorsText(validate.errors)}`,
        );
      }
      if (
        opts.statusField &&
        (body as Record<string, unknown>)[opts.statusField] !== answer.statusCode
      ) {
        fail(op, request, answer, `${opts.statusField} differs from the HTTP status`);
      }
      forbiddenKeys(op, request, answer, body);
      return;
    }
    fail(op, request, answer, `unexpected status ${answer.statusCode}`);
  };

  const forbiddenKeys = (
    op: Operation,
    request: GeneratedRequest,
    answer: Answer,
    body: unknown,
  ) => {
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (value === null || typeof value !== 'object') return;
      for (const [key, child] of Object.entries(value)) {
        if (opts.forbiddenKeys.includes(key))
          fail(op, request, answer, `response carries the key ${key}`);
        walk(child);
      }
    };
    walk(body);
  };

  return { check, seen };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Seed of the run: FUZZ_SEED when set (to reproduce a failure), else a fixed one. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_260_521);

/**
 * Runs `runs` generated requests of one operation through `send` and `checker`. Reproducible: the
 * seed is FUZZ_SEED plus the operation's index; a failure names the seed and the request.
 */
export async function fuzzOperation(opts: {
  op: Operation;
  index: number;
  runs: number;
  hint: Hint;
  send: (op: Operation, request: GeneratedRequest) => Promise<Answer>;
  checker: ContractChecker;
  /** Learns ids and tokens from answers, so later requests reach existing records. */
  learn?: (op: Operation, request: GeneratedRequest, answer: Answer) => void;
}): Promise<number> {
  let sent = 0;
  await fc.assert(
    fc.asyncProperty(requestsFor(opts.op, opts.hint), async (request) => {
      const answer = await opts.send(opts.op, request);
      sent += 1;
      opts.checker.check(opts.op, request, answer);
      opts.learn?.(opts.op, request, answer);
    }),
    // No shrinking: the database moves on between runs, so the first failure is the clearest.
    { seed: FUZZ_SEED + opts.index, numRuns: opts.runs, endOnFailure: true },
  );
  expect(sent).toBe(opts.runs);
  return sent;
}
