// Requests for one operation: valid by the document, or with one part (body, path, query or
// header) mutated.
import fc from 'fast-check';
import { RawJson, toJsonText } from './json-text.js';
import { mutatedValue, numberEdges, stringEdges } from './mutations.js';
import { typesOf, type Operation, type Parameter } from './openapi-operations.js';
import { TEXT, validValue, type Hint } from './valid-values.js';

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
