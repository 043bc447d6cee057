// Mutations: hostile variants of a valid value (wrong types, boundary and huge numbers, long and
// unicode strings, `$`/`.` keys, prototype-pollution keys, operator objects, nested depth bombs).
import fc from 'fast-check';
import { clone, RawJson, setOwn } from './json-text.js';
import { typesOf, type Schema } from './openapi-operations.js';

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

export function numberEdges(schema: Schema): unknown[] {
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

export function stringEdges(schema: Schema): unknown[] {
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
  else setOwn(cursor, String(last), next);
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
