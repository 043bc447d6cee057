import {
  Type,
  type Static,
  type TLiteral,
  type TObject,
  type TSchema,
  type TString,
} from 'typebox';

/** Error body of the shop: every 4xx/5xx, including 404/413/415/429/500. */
export const ShopErrorSchema = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String(),
    status_code: Type.Integer(),
  },
  { $id: 'ShopError', title: 'ShopError', additionalProperties: false },
);
export type ShopError = Static<typeof ShopErrorSchema>;

/** Error body of the handler directory (German messages). */
export const DirectoryErrorSchema = Type.Object(
  {
    success: Type.Literal(false),
    message: Type.String(),
  },
  { title: 'DirectoryError', additionalProperties: false },
);
export type DirectoryError = Static<typeof DirectoryErrorSchema>;

export const PaginationSchema = Type.Object(
  {
    page: Type.Integer({ minimum: 1 }),
    limit: Type.Integer({ minimum: 1 }),
    total: Type.Integer({ minimum: 0 }),
    pages: Type.Integer({ minimum: 0 }),
  },
  { $id: 'Pagination', title: 'Pagination', additionalProperties: false },
);
export type Pagination = Static<typeof PaginationSchema>;

/** `{success: true, message}` — the spec's "Success shape". */
export const SuccessMessageSchema = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
  },
  { title: 'SuccessMessage', additionalProperties: false },
);
export type SuccessMessage = Static<typeof SuccessMessageSchema>;

/**
 * `{success: true, data}` envelope around any schema; with `message`, `{success, data, message}`.
 * `options` names it (`{ $id: 'ProductDetailResponse' }`) for the OpenAPI components.
 * Overloads keep `message` in the static type (a ternary's union would reduce to the narrower shape).
 */
export function DataEnvelope<T extends TSchema>(
  data: T,
  message?: false,
  options?: { $id?: string },
): TObject<{ success: TLiteral<true>; data: T }>;
export function DataEnvelope<T extends TSchema>(
  data: T,
  message: true,
  options?: { $id?: string },
): TObject<{ success: TLiteral<true>; data: T; message: TString }>;
export function DataEnvelope<T extends TSchema>(
  data: T,
  message = false,
  options: { $id?: string } = {},
) {
  return message
    ? Type.Object(
        { success: Type.Literal(true), data, message: Type.String() },
        { ...options, additionalProperties: false },
      )
    : Type.Object(
        { success: Type.Literal(true), data },
        { ...options, additionalProperties: false },
      );
}

/**
 * A response header as the documents show it, `required` when every such answer carries it
 * (service-kit adds `X-Request-Id` and the cache headers to every route's answers).
 */
export type HeaderDoc = { type: string; description: string; required?: boolean };

/**
 * Where a documentation copy points at its schema (a symbol: invisible to JSON and validators);
 * service-kit's document builder names the component after the schema, not the copy.
 */
const DOCUMENTED_FROM = Symbol.for('dogshop.openapi.documentedFrom');

/**
 * Documentation only: a copy of `schema` carrying a `description`, JSON Schema `examples` and,
 * for a response, its `headers` (annotations: validation and serialization ignore them; the
 * OpenAPI documents show them). The examples are type-checked against the schema. The original
 * schema is left unchanged, so one contract can be documented differently by each operation
 * that uses it. A named schema (with an `$id`) stays named: a body or response is a `$ref` to it
 * in the document, with the operation's example beside it.
 */
export function documented<T extends TSchema>(
  schema: T,
  doc: { description?: string; examples: Static<T>[]; headers?: Record<string, HeaderDoc> },
): T {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(schema)) as T;
  Object.defineProperty(copy, DOCUMENTED_FROM, { value: schema, configurable: true });
  return Object.assign(copy, {
    ...(doc.description === undefined ? {} : { description: doc.description }),
    ...(doc.headers === undefined ? {} : { headers: doc.headers }),
    examples: doc.examples,
  });
}

/** No U+0000, and at least one character that is not whitespace: not blank after trimming. */
export const NOT_BLANK_PATTERN = '^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$';

/**
 * Schema options of a text the service refuses when blank after trimming: the documents show it
 * as `NOT_BLANK_PATTERN` (service-kit writes `x-document-pattern` as the `pattern`); validation
 * leaves the rule to the service or to the trimming before it, which name the field in the 400.
 */
export const notBlank = { 'x-document-pattern': NOT_BLANK_PATTERN } as const;

/**
 * An API's tags, declared once with their descriptions: `list` for the document, `tag(name)` for
 * an operation's `tags` (a name not declared does not compile; service-kit refuses a route with
 * an undeclared tag at start-up).
 */
export function apiTags<const T extends Record<string, string>>(descriptions: T) {
  return {
    list: Object.entries(descriptions).map(([name, description]) => ({ name, description })),
    tag: (name: keyof T & string): string[] => [name],
  };
}

export const HealthSchema = Type.Object(
  { status: Type.String(), uptime_s: Type.Optional(Type.Number()) },
  { title: 'Health' },
);

/**
 * An error status, or a status with the message an operation typically answers with it (and
 * optionally a description of when), for the documentation.
 */
export type ErrorResponseSpec = number | [status: number, example: string, description?: string];

/** What an error status means in a service, with a typical message. */
export interface ErrorStatusDoc {
  description: string;
  example: string;
}

export interface ErrorResponseSetOptions<T extends TSchema> {
  /** The service's error envelope. */
  schema: T;
  /** The statuses the service documents by default, with their meaning and typical message. */
  statuses: Record<number, ErrorStatusDoc>;
  /** An example body of the envelope for a status and message. */
  example: (status: number, message: string) => Static<T>;
  /** Message of a status missing from `statuses` when the operation names none. */
  fallbackMessage?: string;
}

const retryAfter = (required: boolean): Record<string, HeaderDoc> => ({
  'retry-after': {
    type: 'integer',
    description: 'Seconds until a new request is accepted',
    ...(required && { required }),
  },
});
/** When to try again: every 429 says it, a 503 when the service knows (overload). */
const RETRY_HEADERS: Partial<Record<number, Record<string, HeaderDoc>>> = {
  429: retryAfter(true),
  503: retryAfter(false),
};

/**
 * One documented error response, in the per-media-type form (Fastify serialises and types it like
 * a plain schema; the OpenAPI document keeps the header next to a named envelope).
 */
export interface ErrorResponse<T extends TSchema> {
  description: string;
  headers?: Record<string, HeaderDoc>;
  content: { 'application/json': { schema: T; example: Static<T> } };
}

/**
 * A service's builder of an operation's error responses (documentation: the schema is the
 * service's error envelope, with a description and one example per status; a 429 or 503
 * documents `Retry-After`). Each service calls this once with its envelope and texts, e.g.
 * `export const shopErrors = errorResponseSet({ schema: ShopErrorSchema, statuses, example })`,
 * and operations spread `...shopErrors(400, [404, 'Product 999 not found'], 429)` into `response`.
 */
export function errorResponseSet<T extends TSchema>(options: ErrorResponseSetOptions<T>) {
  const fallback = options.fallbackMessage ?? 'Error';
  return (...specs: ErrorResponseSpec[]): Record<number, ErrorResponse<T>> =>
    Object.fromEntries(
      specs.map((spec): [number, ErrorResponse<T>] => {
        const [code, example, description] = typeof spec === 'number' ? [spec] : spec;
        const known = options.statuses[code];
        const message = example ?? known?.example ?? fallback;
        return [
          code,
          {
            description: description ?? known?.description ?? 'Error',
            ...(RETRY_HEADERS[code] && { headers: RETRY_HEADERS[code] }),
            content: {
              'application/json': {
                schema: options.schema,
                example: options.example(code, message),
              },
            },
          },
        ];
      }),
    );
}

/**
 * One operation of a request the API sends to its subscribers (an OpenAPI 3.1 `webhooks` entry),
 * written as in the document, except that its schemas are TypeBox schemas like a route's:
 * service-kit names each `$id` schema in it a component and refers to it by `$ref`.
 */
export interface WebhookOperationDoc {
  operationId: string;
  summary: string;
  description: string;
  /** One of the API's tags (service-kit refuses any other at start-up). */
  tags: string[];
  /** Usually `[]`: the API's own security schemes are for requests to it, not from it. */
  security?: Array<Record<string, string[]>>;
  /** The headers the request carries. */
  parameters?: Array<{
    name: string;
    in: 'header';
    required?: boolean;
    description: string;
    schema: TSchema;
    example?: unknown;
  }>;
  requestBody: {
    description?: string;
    required?: boolean;
    content: Record<string, { schema: TSchema; example?: unknown }>;
  };
  /** What the receiver's answers mean, by status (`2XX`, `default` …). */
  responses: Record<string, { description: string }>;
}

/** A request the API sends, by method (an OpenAPI Path Item; webhooks are usually one `post`). */
export type WebhookDoc = { post: WebhookOperationDoc };

/**
 * What an API's OpenAPI document says about itself: the service builder (service-kit) writes it
 * into `/openapi.json` and `/docs`. Each service's contract exports one (`shopApi`, `directoryApi`).
 * Its named schemas need no list: service-kit finds every `$id` schema in the routes' schemas.
 */
export interface ApiDescription {
  title: string;
  version: string;
  description: string;
  securitySchemes: Record<string, Record<string, unknown>>;
  /** Security of operations that declare none. */
  security?: Array<Record<string, string[]>>;
  /** The API's tags (`apiTags(...).list`); service-kit adds its own `Operations`. */
  tags: Array<{ name: string; description: string }>;
  /**
   * The API's error responses by status (its `errorResponseSet`): service-kit documents with them
   * the statuses every operation answers by its declaration (400, 401, 413, 415, 429, 503).
   */
  errors: (...specs: ErrorResponseSpec[]) => Record<number, unknown>;
  /**
   * The requests the API sends to its subscribers, by name (OpenAPI 3.1 `webhooks`): the events
   * and their payloads. None for an API that sends none.
   */
  webhooks?: Record<string, WebhookDoc>;
}
