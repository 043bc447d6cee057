// Schema → fast-check arbitrary: values that satisfy an operation's parameter and body schemas,
// with hints supplying known ids and consistent records where the caller has them.
import fc from 'fast-check';
import { typesOf, type Operation, type Schema } from './openapi-operations.js';

/** Where a value sits in a request: `body.items[].price`, `path.id`, `query.limit`. */
export type Hint = (op: Operation, where: string) => fc.Arbitrary<unknown> | undefined;

export const TEXT = fc.oneof(
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

/** The documents' patterns that start by allowing any text without U+0000. */
const LOOSE_PATTERN = /^\^\[\^\\u0000\]\*/;

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
      const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern);
      const matches = (s: string) => fits(s) && (pattern?.test(s) ?? true);
      if (schema.format === 'email') return EMAIL.filter(matches);
      // A pattern that only keeps some characters out (U+0000, a blank text) is met by almost
      // any text; others (an ObjectId) need text made for them.
      if (pattern && !LOOSE_PATTERN.test(schema.pattern!)) {
        return fc.stringMatching(pattern).filter(fits);
      }
      if (schema.format === 'date-time') {
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString());
      }
      return fc
        .oneof(
          { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength, maxLength }) },
          { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }) },
          { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength, maxLength }) },
        )
        .filter(matches);
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
