// The operations of a committed OpenAPI 3.1 document, in the shape the generators and the checker
// read: parameters, JSON body schema, documented responses and how each is secured.
import { readFileSync } from 'node:fs';

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
  /** A field the service owns: sent back, it is ignored. */
  readOnly?: boolean;
}

export interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: Schema;
}

export interface Media {
  schema?: Schema;
}

/** A documented response header: its schema, and whether every such answer carries it. */
export interface Header {
  required?: boolean;
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
  /** Documented response headers: status → lower-case name → header. */
  responseHeaders: Record<string, Record<string, Header>>;
  /** True when the operation takes a bearer token. */
  bearer: boolean;
  /** The security schemes any of its requirements names (`ApiKeyAuth`, `BearerAuth` …). */
  schemes: string[];
  /** True when the operation declares no security at all (public). */
  public: boolean;
}

export type OpenApiDocument = {
  security?: unknown[];
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components?: { schemas?: Record<string, unknown> };
};

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Reads an OpenAPI document with every `$ref` to `components.schemas` resolved in place: the
 * fuzzer generates requests and checks answers from plain schemas, while the document names its
 * schemas once and refers to them. A single-member `allOf` is the member itself.
 */
export function readDocument(url: URL): OpenApiDocument {
  const doc = JSON.parse(readFileSync(url, 'utf8')) as OpenApiDocument;
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
  return { ...doc, paths: inline(doc.paths) as OpenApiDocument['paths'] };
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
        responses: Record<
          string,
          { content?: Record<string, Media>; headers?: Record<string, Header> }
        >;
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
        responseHeaders: Object.fromEntries(
          Object.entries(op.responses).map(([status, r]) => [
            status,
            Object.fromEntries(
              Object.entries(r.headers ?? {}).map(([name, h]) => [name.toLowerCase(), h]),
            ),
          ]),
        ),
        bearer: security.some((s) => 'BearerAuth' in s),
        schemes: [...new Set(security.flatMap((s) => Object.keys(s)))],
        public: security.length === 0,
      });
    }
  }
  return operations;
}

/** The JSON types a schema allows (none when it leaves the type open). */
export const typesOf = (schema: Schema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
