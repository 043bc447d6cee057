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
  { title: 'ShopError', additionalProperties: false },
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
  { title: 'Pagination', additionalProperties: false },
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
 * Overloads keep `message` in the static type (a ternary's union would reduce to the narrower shape).
 */
export function DataEnvelope<T extends TSchema>(
  data: T,
  message?: false,
): TObject<{ success: TLiteral<true>; data: T }>;
export function DataEnvelope<T extends TSchema>(
  data: T,
  message: true,
): TObject<{ success: TLiteral<true>; data: T; message: TString }>;
export function DataEnvelope<T extends TSchema>(data: T, message = false) {
  return message
    ? Type.Object(
        { success: Type.Literal(true), data, message: Type.String() },
        { additionalProperties: false },
      )
    : Type.Object({ success: Type.Literal(true), data }, { additionalProperties: false });
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

export const HealthSchema = Type.Object(
  { status: Type.String(), uptime_s: Type.Optional(Type.Number()) },
  { title: 'Health' },
);
