// Named schemas in the OpenAPI document. Contract schemas carry an `$id` (packages/contracts);
// routes embed them as they are, so validation, serialisation and TypeBox's static types work
// unchanged. For the document only, every `$id` schema is registered once as a component and
// each place a body or response uses one becomes a `$ref` to it: generated clients then get named
// types instead of anonymous ones.
import type { FastifySchema } from 'fastify';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const refTo = (id: string) => ({ $ref: `${id}#` });

/** A copy of `node` in which every nested schema with an `$id` is a `$ref` to it. */
export function withRefs(node: unknown, keepTopLevel = false): unknown {
  if (Array.isArray(node)) return node.map((item) => withRefs(item));
  if (!isObject(node)) return node;
  if (!keepTopLevel && typeof node.$id === 'string') return refTo(node.$id);
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withRefs(value)]));
}

/**
 * One response of a route for the document: a schema with an `$id` becomes the `content` form
 * with a `$ref`, carrying its description and first example as @fastify/swagger would have.
 */
function documentedResponse(response: unknown): unknown {
  if (!isObject(response)) return response;
  if (isObject(response.content)) {
    const content = Object.fromEntries(
      Object.entries(response.content).map(([type, media]) => [
        type,
        isObject(media) ? { ...media, schema: withRefs(media.schema) } : media,
      ]),
    );
    return { ...response, content };
  }
  if (typeof response.$id !== 'string') return withRefs(response);
  const examples: unknown[] = Array.isArray(response.examples) ? response.examples : [];
  return {
    description: typeof response.description === 'string' ? response.description : 'Response',
    content: {
      'application/json': {
        schema: refTo(response.$id),
        ...(examples.length > 0 && { example: examples[0] }),
      },
    },
  };
}

/**
 * @fastify/swagger's `transform`: bodies and responses refer to components by `$ref`; parameters
 * (query, path, headers) stay inline, since OpenAPI lists them one by one.
 */
export function refsForDocument(schema: FastifySchema | undefined): FastifySchema | undefined {
  if (!schema) return schema;
  const { body, response, ...rest } = schema as Json;
  return {
    ...rest,
    ...(body !== undefined && { body: withRefs(body) }),
    ...(isObject(response) && {
      response: Object.fromEntries(
        Object.entries(response).map(([status, value]) => [status, documentedResponse(value)]),
      ),
    }),
  };
}

/**
 * The schemas to register as components: each `$id` schema once, its own nested `$id` schemas as
 * `$ref`s, so the components refer to each other instead of repeating themselves.
 */
export function componentSchemas(schemas: readonly unknown[]): Json[] {
  const byId = new Map<string, Json>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    if (typeof node.$id === 'string' && !byId.has(node.$id)) {
      byId.set(node.$id, withRefs(node, true) as Json);
    }
    Object.values(node).forEach(visit);
  };
  schemas.forEach(visit);
  return [...byId.values()];
}
