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

export type OpenApiDocument = {
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

/** The JSON types a schema allows (none when it leaves the type open). */
export const typesOf = (schema: Schema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
