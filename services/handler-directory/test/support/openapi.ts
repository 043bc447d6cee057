// The committed OpenAPI document with its `$ref`s to `components.schemas` inlined: the fuzzer
// (packages/api-fuzz) generates requests and checks answers from plain schemas, while the document
// names its schemas once and refers to them. A single-member `allOf` (a named request body with
// the operation's examples beside it) is the member itself.
import { readDocument as readRawDocument } from '@dogshop/api-fuzz';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Reads `openapi/<service>.json` with every schema reference resolved in place. */
export function readDocument(url: URL): ReturnType<typeof readRawDocument> {
  const doc = readRawDocument(url) as ReturnType<typeof readRawDocument> & {
    components?: { schemas?: Record<string, unknown> };
  };
  const components = doc.components?.schemas ?? {};
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline);
    if (!isObject(node)) return node;
    if (typeof node.$ref === 'string') {
      const name = node.$ref.replace('#/components/schemas/', '');
      if (!(name in components)) throw new Error(`unresolved $ref ${node.$ref}`);
      const { $ref: _ref, ...siblings } = node;
      return { ...(inline(components[name]) as Json), ...(inline(siblings) as Json) };
    }
    const { allOf, ...rest } = node;
    if (Array.isArray(allOf) && allOf.length === 1) {
      return { ...(inline(allOf[0]) as Json), ...(inline(rest) as Json) };
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inline(value)]));
  };
  return { ...doc, paths: inline(doc.paths) as typeof doc.paths };
}
