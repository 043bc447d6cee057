import type { FastifyInstance } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';

type Serializer = (data: unknown) => string;

// Compiled once per response schema object in this process, as Fastify's own compiler does
// (fast-json-stringify with no shared schemas) but kept: an app built again in the same process
// (the tests build hundreds) reuses every route's serializers instead of generating them again.
const serializers = new WeakMap<object, Serializer>();

/** Response serializers compiled once per schema object per process. */
export function useCachedSerializers(app: FastifyInstance): void {
  app.setSerializerCompiler(({ schema }) => {
    let serialize = serializers.get(schema);
    if (!serialize) {
      serialize = fastJsonStringify(schema as object) as Serializer;
      serializers.set(schema, serialize);
    }
    return serialize;
  });
}
