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
 * Documentation only: a copy of `schema` carrying a `description` and JSON Schema `examples`
 * (annotations: validation and serialization ignore them; the OpenAPI documents show them). The
 * examples are type-checked against the schema. The original schema is left unchanged, so one
 * contract can be documented differently by each operation that uses it.
 */
export function documented<T extends TSchema>(
  schema: T,
  doc: { description?: string; examples: Static<T>[] },
): T {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(schema)) as T;
  return Object.assign(copy, {
    ...(doc.description === undefined ? {} : { description: doc.description }),
    examples: doc.examples,
  });
}

/**
 * Documentation only: `documented(schema, doc)` for a request body, written inline in the OpenAPI
 * document (without the schema's `$id`; schemas nested in it keep theirs and are referenced). A
 * body given as a `$ref` would lose the operation's examples: the document generator keeps
 * nothing beside a `$ref`, and a single-member `allOf` is refused by the lint.
 */
export function documentedBody<T extends TSchema>(
  schema: T,
  doc: { description?: string; examples: Static<T>[] },
): T {
  const { $id: _id, ...copy } = documented(schema, doc) as T & { $id?: string };
  return copy as unknown as T;
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

const RETRY_AFTER_HEADER = {
  'retry-after': { type: 'integer', description: 'Seconds until a new request is accepted' },
};

/**
 * One documented error response, in the per-media-type form (Fastify serialises and types it like
 * a plain schema; the OpenAPI document keeps the header next to a named envelope).
 */
export interface ErrorResponse<T extends TSchema> {
  description: string;
  headers?: Record<string, { type: string; description: string }>;
  content: { 'application/json': { schema: T; example: Static<T> } };
}

/**
 * A service's builder of an operation's error responses (documentation: the schema is the
 * service's error envelope, with a description and one example per status; a 429 documents
 * `Retry-After`). Each service calls this once with its envelope and texts, e.g.
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
            ...(code === 429 ? { headers: RETRY_AFTER_HEADER } : {}),
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
 * What an API's OpenAPI document says about itself: the service builder (service-kit) writes it
 * into `/openapi.json` and `/docs`. Each service's contract exports one (`shopApi`, `directoryApi`).
 */
export interface ApiDescription {
  title: string;
  version: string;
  description: string;
  securitySchemes: Record<string, Record<string, unknown>>;
  /** Security of operations that declare none. */
  security?: Array<Record<string, string[]>>;
  tags: Array<{ name: string; description: string }>;
  /** Named schemas (each with an `$id`): `components.schemas.<$id>`, referred to by `$ref`. */
  schemas: readonly unknown[];
}
