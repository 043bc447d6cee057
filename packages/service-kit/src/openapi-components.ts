// Named schemas in the OpenAPI document. Contract schemas carry an `$id` (packages/contracts);
// routes embed them as they are, so validation, serialisation and TypeBox's static types work
// unchanged. For the document only, every `$id` schema a route uses becomes a component once
// (found by walking the route's schema: no list to keep) and each place a body or response uses
// one becomes a `$ref` to it: generated clients then get named types. The components are the
// document's alone: they are never added to Fastify (`addSchema` while routes are registered
// would make their contexts rebuild their validators without the service's compiler).
import type { FastifySchema } from 'fastify';

type Json = Record<string, unknown>;

/**
 * A response's headers as @fastify/swagger reads them: name → schema with a description, and
 * `required` when every such answer carries it (which @fastify/swagger drops: `transform` carries
 * it to `liftRequiredHeaders` beside the operation).
 */
export type ResponseHeaders = Record<
  string,
  { type: string; description: string; required?: boolean }
>;

/**
 * The schema a documentation copy was made from: the contracts' `documented()` sets it on its
 * copy (a symbol, invisible to JSON and to the validators), so that the component is the schema
 * itself, without one operation's description and examples.
 */
const DOCUMENTED_FROM = Symbol.for('dogshop.openapi.documentedFrom');

export const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const refTo = (id: string) => ({ $ref: `#/components/schemas/${id}` });

const originalOf = (node: Json): Json => {
  const original = (node as Json & { [DOCUMENTED_FROM]?: unknown })[DOCUMENTED_FROM];
  return isObject(original) ? originalOf(original) : node;
};

/** A copy of `node` in which every nested schema with an `$id` is a `$ref` to it. */
export function withRefs(node: unknown, keepTopLevel = false): unknown {
  if (Array.isArray(node)) return node.map((item) => withRefs(item));
  if (!isObject(node)) return node;
  if (!keepTopLevel && typeof node.$id === 'string') return refTo(node.$id);
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withRefs(value)]));
}

const firstExample = (node: Json): { example?: unknown } =>
  Array.isArray(node.examples) && node.examples.length > 0
    ? { example: node.examples[0] as unknown }
    : {};

/**
 * One response of a route for the document, with `headers` added: a schema with an `$id` becomes
 * the `content` form with a `$ref`, carrying its description and first example as
 * @fastify/swagger would have.
 */
function documentedResponse(response: unknown, headers: ResponseHeaders): unknown {
  if (!isObject(response)) return response;
  const allHeaders = withoutRequired({
    ...headers,
    ...(isObject(response.headers) ? (response.headers as ResponseHeaders) : {}),
  });
  if (isObject(response.content)) {
    const content = Object.fromEntries(
      Object.entries(response.content).map(([type, media]) => [
        type,
        isObject(media) ? { ...media, schema: withRefs(media.schema) } : media,
      ]),
    );
    return { ...response, headers: allHeaders, content };
  }
  if (typeof response.$id !== 'string')
    return { ...(withRefs(response) as Json), headers: allHeaders };
  return {
    description: typeof response.description === 'string' ? response.description : 'Response',
    headers: allHeaders,
    content: { 'application/json': { schema: refTo(response.$id), ...firstExample(response) } },
  };
}

const withoutRequired = (headers: ResponseHeaders) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, { required: _required, ...header }]) => [name, header]),
  );

/** The headers of a response that every such answer carries. */
const requiredHeaders = (response: unknown, headers: ResponseHeaders): string[] =>
  Object.entries({
    ...headers,
    ...(isObject(response) && isObject(response.headers)
      ? (response.headers as ResponseHeaders)
      : {}),
  })
    .filter(([, header]) => header.required === true)
    .map(([name]) => name);

/** Each response's required headers, by status, carried like the body example. */
const REQUIRED_HEADERS = 'x-required-headers';

/**
 * An operation's body example, carried beside a named body from `transform` to `transformObject`
 * (@fastify/swagger keeps nothing beside the `$ref` of a body, but copies `x-` keys).
 */
const BODY_EXAMPLE = 'x-body-example';

/**
 * A request body for the document: a named body (with an `$id`) is a `$ref` to its component,
 * its first example kept for `placeBodyExamples`.
 */
function documentedBody(body: unknown): Json {
  if (!isObject(body) || typeof body.$id !== 'string') return { body: withRefs(body) };
  const described = typeof body.description === 'string' ? { description: body.description } : {};
  const example = firstExample(body);
  return {
    body: { ...described, content: { 'application/json': { schema: refTo(body.$id) } } },
    ...('example' in example && { [BODY_EXAMPLE]: example.example }),
  };
}

/**
 * Marks the headers every answer of a response carries `required`, in a generated document, in
 * place (from what `refsForDocument` carried beside each operation).
 */
export function liftRequiredHeaders(document: Json): Json {
  for (const operation of operationsIn(document)) {
    const required = operation[REQUIRED_HEADERS];
    delete operation[REQUIRED_HEADERS];
    if (!isObject(required) || !isObject(operation.responses)) continue;
    for (const [status, names] of Object.entries(required)) {
      const response = operation.responses[status];
      const headers = isObject(response) && isObject(response.headers) ? response.headers : {};
      for (const name of Array.isArray(names) ? names : []) {
        const header = headers[name as string];
        if (isObject(header)) header.required = true;
      }
    }
  }
  return document;
}

/** The operations of a generated document. */
export function operationsIn(document: Json): Json[] {
  const paths = isObject(document.paths) ? document.paths : {};
  return Object.values(paths).flatMap((item) =>
    Object.values(isObject(item) ? item : {}).filter(
      (value): value is Json => isObject(value) && isObject(value.responses),
    ),
  );
}

/** Puts each named body's example beside its `$ref` in a generated document, in place. */
export function placeBodyExamples(document: Json): Json {
  for (const operation of operationsIn(document)) {
    if (!(BODY_EXAMPLE in operation)) continue;
    const content = (operation.requestBody as { content?: Record<string, Json> } | undefined)
      ?.content;
    const media = content?.['application/json'];
    if (media) media.example = operation[BODY_EXAMPLE];
    delete operation[BODY_EXAMPLE];
  }
  return document;
}

/**
 * @fastify/swagger's `transform`: bodies and responses refer to components by `$ref`, each
 * response with the headers `headersOf(status)` gives; parameters (query, path, headers) stay
 * inline, since OpenAPI lists them one by one.
 */
export function refsForDocument(
  schema: FastifySchema | undefined,
  headersOf: (status: string) => ResponseHeaders = () => ({}),
): FastifySchema | undefined {
  if (!schema) return schema;
  const { body, response, ...rest } = schema as Json;
  const responses = Object.entries(isObject(response) ? response : {});
  return {
    ...rest,
    ...(body !== undefined && documentedBody(body)),
    ...(isObject(response) && {
      response: Object.fromEntries(
        responses.map(([status, value]) => [status, documentedResponse(value, headersOf(status))]),
      ),
      [REQUIRED_HEADERS]: Object.fromEntries(
        responses.map(([status, value]) => [status, requiredHeaders(value, headersOf(status))]),
      ),
    }),
  };
}

/**
 * Adds to `components` (by name) each `$id` schema found in `schemas` (nested ones included) that
 * it lacks, its own nested `$id` schemas as `$ref`s, so the components refer to each other
 * instead of repeating themselves. A documentation copy stands for the schema it was made from.
 */
export function addComponents(components: Record<string, unknown>, schemas: readonly unknown[]) {
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    if (typeof node.$id === 'string' && !(node.$id in components)) {
      const { $id: _id, ...component } = withRefs(originalOf(node), true) as Json;
      components[node.$id] = component;
    }
    Object.values(node).forEach(visit);
  };
  schemas.forEach(visit);
}
