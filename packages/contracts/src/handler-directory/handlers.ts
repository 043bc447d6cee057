// The handlers resource: the dog handlers of the directory (the API calls them `users`), their
// schemas and the documentation of every operation on them: the public list, the administrator
// area under /api/users and the export.
import { Type, type Static, type TObject } from 'typebox';
import { SuccessMessageSchema, documented, notBlank } from '../common.js';
import { directoryErrors, handlerNotFound, type ErrorResponseSpec } from './errors.js';
import { DateTime, ObjectIdString } from './shared.js';
import { directoryTag } from './tags.js';

export const Latitude = (description = 'Degrees north (WGS 84)', examples?: number[]) =>
  Type.Number({ minimum: -90, maximum: 90, description, ...(examples ? { examples } : {}) });
export const Longitude = (description = 'Degrees east (WGS 84)', examples?: number[]) =>
  Type.Number({ minimum: -180, maximum: 180, description, ...(examples ? { examples } : {}) });

/** GPS position of a handler; both coordinates are required when a position is given. */
export const GpsSchema = Type.Object(
  { lat: Latitude(), lng: Longitude() },
  { $id: 'Gps', title: 'Gps', additionalProperties: false },
);
export type Gps = Static<typeof GpsSchema>;

export const HandlerSchema = Type.Object(
  {
    _id: ObjectIdString('Assigned by the service'),
    name: Type.String(),
    address: Type.Optional(Type.String()),
    phone: Type.String(),
    type: Type.Optional(Type.String({ description: 'Short type code' })),
    available: Type.Boolean({
      description:
        'As last set. Listed publicly while true and `availableUntil` is null or in the future',
    }),
    availableUntil: Type.Union([DateTime(), Type.Null()], {
      description:
        'End of the availability; null: until further notice. Once passed, the handler leaves the public list (no write needed)',
    }),
    availabilityConfirmedAt: Type.Union([DateTime(), Type.Null()], {
      description:
        'When availability was last set (by any write that gives `available` or `availableUntil`); null: never since this field exists',
    }),
    gps: Type.Optional(GpsSchema),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'Handler', title: 'Handler', additionalProperties: false },
);
export type Handler = Static<typeof HandlerSchema>;

/** A handler in the public list; `distance_km` only when the list was asked for near a point. */
export const PublicHandlerSchema = Type.Object(
  {
    ...HandlerSchema.properties,
    distance_km: Type.Optional(
      Type.Number({ minimum: 0, description: 'Great-circle distance from lat/lng, one decimal' }),
    ),
  },
  { $id: 'PublicHandler', title: 'PublicHandler', additionalProperties: false },
);
export type PublicHandler = Static<typeof PublicHandlerSchema>;

const Name = Type.String({
  minLength: 1,
  maxLength: 200,
  description: '1–200 characters after trimming',
  ...notBlank,
});
const Phone = Type.String({
  minLength: 1,
  maxLength: 50,
  description: '1–50 characters after trimming',
  ...notBlank,
});
const Address = Type.Union([Type.String({ maxLength: 300 }), Type.Null()], {
  description: 'Up to 300 characters; empty or null means none',
});
const TypeCode = Type.Union([Type.String({ maxLength: 50 }), Type.Null()], {
  description: 'Short type code, up to 50 characters; empty or null means none',
});
const Available = (options: { default?: boolean } = {}) =>
  Type.Boolean({ description: 'Listed publicly when true', ...options });
const OptionalGps = Type.Union([GpsSchema, Type.Null()], { description: 'null means no position' });
const AvailableUntil = Type.Union([DateTime(), Type.Null()], {
  description:
    'Available until this time (ISO 8601 with offset, in the future); null: until further notice. Only with `available` true',
  examples: ['2026-11-29T20:00:00+01:00'],
});

// Request bodies are named (an `$id`): the documents refer to them, with each operation's example.

/**
 * The fields the service owns, accepted in a body and ignored (a record sent back unchanged is
 * not refused): `readOnly` in the documents. The route drops them before validation, so the
 * handlers never see them: the bodies' static types leave them out.
 */
const serviceOwnedFields = {
  _id: Type.Optional(Type.Unknown({ readOnly: true, description: 'Read-only: ignored' })),
  availabilityConfirmedAt: Type.Optional(
    Type.Unknown({ readOnly: true, description: 'Read-only: ignored' }),
  ),
  createdAt: Type.Optional(Type.Unknown({ readOnly: true, description: 'Read-only: ignored' })),
  updatedAt: Type.Optional(Type.Unknown({ readOnly: true, description: 'Read-only: ignored' })),
  __v: Type.Optional(Type.Unknown({ readOnly: true, description: 'Read-only: ignored' })),
};

const createHandlerFields = {
  name: Name,
  phone: Phone,
  address: Type.Optional(Address),
  type: Type.Optional(TypeCode),
  available: Type.Optional(Available({ default: true })),
  availableUntil: Type.Optional(AvailableUntil),
  gps: Type.Optional(OptionalGps),
};
export const CreateHandlerBodySchema = Type.Object(
  { ...createHandlerFields, ...serviceOwnedFields },
  { $id: 'CreateHandlerBody', title: 'CreateHandlerBody', additionalProperties: false },
);
export type CreateHandlerBody = Static<TObject<typeof createHandlerFields>>;

const updateHandlerFields = {
  name: Type.Optional(Name),
  phone: Type.Optional(Phone),
  address: Type.Optional(Address),
  type: Type.Optional(TypeCode),
  available: Type.Optional(Available()),
  availableUntil: Type.Optional(AvailableUntil),
  gps: Type.Optional(OptionalGps),
};
/** Partial update: only the fields given change; null removes an optional field. */
export const UpdateHandlerBodySchema = Type.Object(
  { ...updateHandlerFields, ...serviceOwnedFields },
  {
    $id: 'UpdateHandlerBody',
    title: 'UpdateHandlerBody',
    additionalProperties: false,
    minProperties: 1,
    description: 'The fields to change: at least one besides the read-only ones',
  },
);
export type UpdateHandlerBody = Static<TObject<typeof updateHandlerFields>>;

export const AvailabilityBodySchema = Type.Object(
  {
    available: Available(),
    availableUntil: Type.Optional(
      Type.Union([DateTime(), Type.Null()], {
        description:
          'Available until this time (in the future; only with `available: true`). Left out or null: until further notice',
        examples: ['2026-11-29T20:00:00+01:00'],
      }),
    ),
  },
  { $id: 'AvailabilityBody', title: 'AvailabilityBody', additionalProperties: false },
);
export type AvailabilityBody = Static<typeof AvailabilityBodySchema>;

export const GpsBodySchema = Type.Object(
  { lat: Latitude(), lng: Longitude() },
  { $id: 'GpsBody', title: 'GpsBody', additionalProperties: false },
);
export type GpsBody = Static<typeof GpsBodySchema>;

/** Any string: an id that is not an ObjectId names no handler and answers 404, not 400. */
export const HandlerIdParamsSchema = Type.Object(
  { id: Type.String({ description: 'Handler `_id`', examples: ['665f1c2ab4d3e8a1c2f0b123'] }) },
  { additionalProperties: false },
);
export type HandlerIdParams = Static<typeof HandlerIdParamsSchema>;

/** The largest page of the public list (`limit`). */
export const PUBLIC_LIST_MAX_LIMIT = 1_000;

export const PublicHandlerListQuerySchema = Type.Object(
  {
    lat: Type.Optional(
      Latitude('Search point, together with lng: nearest handlers first', [52.52]),
    ),
    lng: Type.Optional(
      Longitude('Search point, together with lat: nearest handlers first', [13.405]),
    ),
    radius_km: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 20_000,
        description: 'Only handlers within this distance of lat/lng',
        examples: [300],
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: PUBLIC_LIST_MAX_LIMIT,
        description:
          'Page size: at most this many handlers, and `next_cursor` when more follow. Without it: the whole list',
        examples: [100],
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2_048,
        description:
          'The `next_cursor` of the previous page (opaque), with `limit` and the same `lat`/`lng`: the page after it',
        examples: ['WyJhbm5hIGJlcmdtYW5uIiwiNjY1ZjFjMmFiNGQzZThhMWMyZjBiMTIzIl0'],
      }),
    ),
  },
  { additionalProperties: false },
);
export type PublicHandlerListQuery = Static<typeof PublicHandlerListQuerySchema>;

/** The largest page of the admin list (`limit`). */
export const HANDLER_LIST_MAX_LIMIT = 1_000;

/** Filters of the admin list and the export; none given: every handler. */
const handlerFilterFields = {
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Only handlers whose name, address or phone contains this text (case-insensitive; umlauts and accents match their base letter, ß matches ss)',
      examples: ['müller'],
    }),
  ),
  available: Type.Optional(
    Type.Boolean({
      description:
        'true: only handlers listed publicly now (`available` and `availableUntil` not passed); false: only the others',
      examples: [true],
    }),
  ),
  type: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 50,
      description: 'Only this type code',
      examples: ['SW'],
    }),
  ),
};

export const HandlerListQuerySchema = Type.Object(
  {
    ...handlerFilterFields,
    sort: Type.Optional(
      Type.Union([Type.Literal('name'), Type.Literal('updatedAt')], {
        default: 'name',
        description: '`name` (default; German dictionary order) or `updatedAt` (newest first)',
        examples: ['updatedAt'],
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: HANDLER_LIST_MAX_LIMIT,
        description:
          'Page size: at most this many handlers, and `next_cursor` when more follow. Without it: every match',
        examples: [50],
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2_048,
        description:
          'The `next_cursor` of the previous page (opaque), with `limit` and the same `sort`: the page after it',
        examples: ['WyJhbm5hIGJlcmdtYW5uIiwiNjY1ZjFjMmFiNGQzZThhMWMyZjBiMTIzIl0'],
      }),
    ),
  },
  { additionalProperties: false },
);
export type HandlerListQuery = Static<typeof HandlerListQuerySchema>;

export const HandlerResponseSchema = Type.Object(
  { success: Type.Literal(true), data: HandlerSchema },
  { $id: 'HandlerResponse', title: 'HandlerResponse', additionalProperties: false },
);
export const HandlerListResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Array(HandlerSchema),
    next_cursor: Type.Optional(
      Type.String({
        description:
          'Only with `limit`, when more handlers follow: pass it as `cursor` for the next page',
      }),
    ),
  },
  { $id: 'HandlerListResponse', title: 'HandlerListResponse', additionalProperties: false },
);
export const PublicHandlerListResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Array(PublicHandlerSchema),
    next_cursor: Type.Optional(
      Type.String({
        description:
          'Only with `limit`, when more handlers follow: pass it as `cursor` for the next page. Absent on the last page',
      }),
    ),
  },
  {
    $id: 'PublicHandlerListResponse',
    title: 'PublicHandlerListResponse',
    additionalProperties: false,
  },
);
/** `{success: true, message}`, named for the OpenAPI components (common.ts's has no `$id`). */
export const DeleteHandlerResponseSchema = Type.Object(SuccessMessageSchema.properties, {
  $id: 'SuccessMessage',
  title: 'SuccessMessage',
  additionalProperties: false,
});

export const ExportFormatSchema = Type.Union(
  [Type.Literal('json'), Type.Literal('csv'), Type.Literal('xlsx')],
  {
    default: 'json',
    description: '`json` (default), `csv` or `xlsx` (Excel workbook)',
    examples: ['csv'],
  },
);
export const ExportQuerySchema = Type.Object(
  {
    ...handlerFilterFields,
    format: Type.Optional(ExportFormatSchema),
    delimiter: Type.Optional(
      Type.Union([Type.Literal('comma'), Type.Literal('semicolon')], {
        default: 'comma',
        description:
          'CSV field delimiter; `semicolon` for spreadsheet locales that expect it. Ignored by `json` and `xlsx`',
        examples: ['semicolon'],
      }),
    ),
  },
  { additionalProperties: false },
);
export type ExportQuery = Static<typeof ExportQuerySchema>;

/** The CSV columns, in order; also the header row of the XLSX export. */
export const EXPORT_CSV_COLUMNS = [
  'id',
  'name',
  'address',
  'phone',
  'type',
  'available',
  'availableUntil',
  'availabilityConfirmedAt',
  'lat',
  'lng',
  'createdAt',
  'updatedAt',
] as const;

/** Media type of the XLSX export. */
export const XLSX_CONTENT_TYPE =
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const ExportJsonResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    exportedAt: DateTime(),
    count: Type.Integer({ minimum: 0 }),
    data: Type.Array(HandlerSchema),
  },
  { $id: 'HandlerExport', title: 'HandlerExport', additionalProperties: false },
);
export type ExportJsonResponse = Static<typeof ExportJsonResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Examples (typed against the schemas, so an example that no longer fits fails the build)

/** The handler of the documents' examples (the export's CSV example is this handler's row). */
export const handlerExample: Handler = {
  _id: '665f1c2ab4d3e8a1c2f0b123',
  name: 'Anna Bergmann',
  address: 'Am Forsthaus 5, 29614 Soltau',
  phone: '+49 5191 987654',
  type: 'SW',
  available: true,
  availableUntil: '2026-03-22T19:00:00.000Z',
  availabilityConfirmedAt: '2026-03-02T16:09:41.000Z',
  gps: { lat: 52.9866, lng: 9.8429 },
  createdAt: '2026-02-11T07:45:00.000Z',
  updatedAt: '2026-03-02T16:10:27.000Z',
};

const otherHandlerExample: Handler = {
  _id: '665f1c2ab4d3e8a1c2f0b124',
  name: 'Jörg Östermann',
  phone: '+49 171 2345678',
  available: false,
  availableUntil: null,
  availabilityConfirmedAt: '2026-02-12T10:00:00.000Z',
  createdAt: '2026-02-12T10:00:00.000Z',
  updatedAt: '2026-02-12T10:00:00.000Z',
};

const {
  _id,
  availabilityConfirmedAt: _confirmed,
  availableUntil: _until,
  createdAt: _created,
  updatedAt: _updated,
  ...createHandlerExample
} = handlerExample;
const { address: _address, ...handlerWithoutAddress } = handlerExample;

/** An id with U+0000 (or a URL that cannot be decoded): 400, where any other id is a 404. */
const idRefused: ErrorResponseSpec = [
  400,
  'Ungültige Anfrage: params.id darf das Zeichen U+0000 nicht enthalten',
  'The id contains U+0000, or the URL cannot be decoded',
];

const handlerResponse = (description: string, data = handlerExample) =>
  documented(HandlerResponseSchema, { description, examples: [{ success: true, data }] });

/**
 * The CSV export of `handlerExample`, byte for byte as the service writes it (a test compares the
 * two): the phone starts with `+`, so it carries the formula guard `'`.
 */
export const EXPORT_CSV_EXAMPLE =
  '\ufeffid,name,address,phone,type,available,availableUntil,availabilityConfirmedAt,lat,lng,createdAt,updatedAt\r\n' +
  '665f1c2ab4d3e8a1c2f0b123,Anna Bergmann,"Am Forsthaus 5, 29614 Soltau",\'+49 5191 987654,SW,true,2026-03-22T19:00:00.000Z,2026-03-02T16:09:41.000Z,52.9866,9.8429,2026-02-11T07:45:00.000Z,2026-03-02T16:10:27.000Z';

// ---------------------------------------------------------------------------------------------
// Operations

export const listAvailableHandlersOperation = {
  tags: directoryTag('Public'),
  operationId: 'listAvailableHandlers',
  summary: 'Available handlers, by name or nearest first',
  description:
    'Only handlers listed now: `available: true` and `availableUntil` null or in the future (a handler whose `availableUntil` passes leaves the list then, on every replica, with no write). Ordered by name (ties by `_id`). With `lat` and `lng` (both or neither): only those with a GPS position, nearest first by great-circle distance (ties by name, then `_id`), each with `distance_km`; `radius_km` limits the distance. ' +
    'Without `limit` the whole list comes at once, as it always has. With `limit` (1–1000) it comes in pages of that size: while more follow, the answer carries `next_cursor`, which `cursor` then asks for (with the same `limit` or another, and the same `lat`/`lng`); a page starts right after the last handler of the previous one, so handlers added or removed meanwhile make no other handler repeat or go missing. A `cursor` that is not one of this list, or of another point, is 400. ' +
    'Public cache: every answer has a strong `ETag` (the same on every replica for the same list) and `Cache-Control: public, max-age=5, stale-while-revalidate=30`; with `If-None-Match` an unchanged list is `304` without a body.',
  querystring: PublicHandlerListQuerySchema,
  response: {
    200: documented(PublicHandlerListResponseSchema, {
      description:
        'The available handlers (nearest first when lat/lng are given), all or one page (`limit`)',
      examples: [{ success: true, data: [{ ...handlerExample, distance_km: 245.3 }] }],
    }),
    ...directoryErrors([400, 'Ungültige Anfrage: lat und lng nur gemeinsam angeben'], 429),
  },
};

export const listHandlersOperation = {
  tags: directoryTag('Handlers'),
  operationId: 'listHandlers',
  summary: 'Handlers, available or not: all, filtered, sorted, paged',
  description:
    'Without parameters: every handler, ordered by name (German collation: case-insensitive, umlauts with their base letter). `q`, `available` and `type` filter (all must match); `sort=updatedAt` orders by last change, newest first; `limit` pages as the public list does (`next_cursor` → `cursor`, with the same filters and sort). Admin or viewer.',
  querystring: HandlerListQuerySchema,
  response: {
    200: documented(HandlerListResponseSchema, {
      description: 'The matching handlers, all or one page (`limit`)',
      examples: [{ success: true, data: [handlerExample, otherHandlerExample] }],
    }),
    ...directoryErrors([400, 'Ungültige Anfrage: cursor nur zusammen mit limit'], 401, 403, 429),
  },
};

export const getHandlerOperation = {
  tags: directoryTag('Handlers'),
  operationId: 'getHandler',
  summary: 'One handler',
  description:
    'The handler with this `_id`, available or not. Admin or viewer, or the handler account bound to this handler.',
  params: HandlerIdParamsSchema,
  response: {
    200: handlerResponse('The handler'),
    ...directoryErrors(idRefused, 401, handlerNotFound, 429),
  },
};

export const createHandlerOperation = {
  tags: directoryTag('Handlers'),
  operationId: 'createHandler',
  summary: 'Create a handler',
  description:
    '`name` and `phone` are required; `available` defaults to true. Unknown fields are 400; read-only fields (`_id`, `createdAt`, `updatedAt`, `__v`) are ignored.',
  body: documented(CreateHandlerBodySchema, { examples: [createHandlerExample] }),
  response: {
    201: handlerResponse('The handler was created'),
    ...directoryErrors(400, 401, 403, 413, 415, 429),
  },
};

export const updateHandlerOperation = {
  tags: directoryTag('Handlers'),
  operationId: 'updateHandler',
  summary: 'Change some fields of a handler',
  description:
    'Only the fields given change; `null` removes `address`, `type` or `gps`. Read-only fields are ignored.',
  params: HandlerIdParamsSchema,
  body: documented(UpdateHandlerBodySchema, {
    examples: [{ phone: '+49 5191 123123', address: null }],
  }),
  response: {
    200: handlerResponse('The changed handler', {
      ...handlerWithoutAddress,
      phone: '+49 5191 123123',
      updatedAt: '2026-03-21T08:00:00.000Z',
    }),
    ...directoryErrors(400, 401, 403, handlerNotFound, 413, 415, 429),
  },
};

export const deleteHandlerOperation = {
  tags: directoryTag('Handlers'),
  operationId: 'deleteHandler',
  summary: 'Delete a handler',
  description: 'Removes the handler for good. Admin only.',
  params: HandlerIdParamsSchema,
  response: {
    200: documented(DeleteHandlerResponseSchema, {
      description: 'The handler was deleted',
      examples: [{ success: true, message: 'Benutzer wurde gelöscht' }],
    }),
    ...directoryErrors(idRefused, 401, 403, handlerNotFound, 429),
  },
};

export const setHandlerAvailabilityOperation = {
  tags: directoryTag('Handlers'),
  operationId: 'setHandlerAvailability',
  summary: 'Set availability (moves the handler in or out of the public list)',
  description:
    '`available: false` takes the handler out of the public list, `true` puts it back, until `availableUntil` when given (it must lie in the future; left out or null: until further notice). Sets the whole availability: `availableUntil` left out clears an earlier end, and `availabilityConfirmedAt` becomes now. Admin, or the handler account bound to this handler.',
  params: HandlerIdParamsSchema,
  body: documented(AvailabilityBodySchema, {
    examples: [
      { available: true, availableUntil: '2026-03-22T20:00:00+01:00' },
      { available: false },
    ],
  }),
  response: {
    200: handlerResponse('The changed handler', {
      ...handlerExample,
      availableUntil: '2026-03-22T19:00:00.000Z',
      availabilityConfirmedAt: '2026-03-21T08:00:00.000Z',
      updatedAt: '2026-03-21T08:00:00.000Z',
    }),
    ...directoryErrors(400, 401, 403, handlerNotFound, 415, 429),
  },
};

export const setHandlerGpsOperation = {
  tags: directoryTag('Handlers'),
  operationId: 'setHandlerGps',
  summary: 'Set the GPS position',
  description:
    'Both `lat` (−90..90) and `lng` (−180..180) are required; the position is used by the nearest search of the public list. Admin, or the handler account bound to this handler.',
  params: HandlerIdParamsSchema,
  body: documented(GpsBodySchema, { examples: [{ lat: 53.0793, lng: 8.8017 }] }),
  response: {
    200: handlerResponse('The changed handler', {
      ...handlerExample,
      gps: { lat: 53.0793, lng: 8.8017 },
    }),
    ...directoryErrors(
      [400, 'Ungültige Anfrage: body.lat muss <= 90 sein'],
      401,
      403,
      handlerNotFound,
      415,
      429,
    ),
  },
};

export const exportHandlersOperation = {
  tags: directoryTag('Export'),
  operationId: 'exportHandlers',
  summary: 'All handlers as JSON, or as a CSV or XLSX download',
  description:
    `\`format=json\` (default): \`{success, exportedAt, count, data}\`. \`format=csv\`: UTF-8 with byte-order mark, columns \`${EXPORT_CSV_COLUMNS.join(',')}\`, RFC 4180 quoting, ` +
    "`delimiter=semicolon` optional; text cells starting with `=`, `+`, `-`, `@`, tab or CR are prefixed with `'` against formula injection. " +
    '`format=xlsx`: an Excel workbook with the same columns and header row, typed cells (text as text, never a formula, so no prefix; coordinates as numbers; `available` as a boolean; timestamps as UTC date-times; missing values empty); `delimiter` is ignored. ' +
    'All formats stream: memory stays flat for any directory size. `q`, `available` and `type` export only the matching handlers, as the list filters them. Admin or viewer.',
  querystring: ExportQuerySchema,
  response: {
    200: {
      description:
        'The export: JSON, or with `format=csv` / `format=xlsx` a download; the media type follows `format`',
      headers: {
        'content-disposition': {
          type: 'string',
          description:
            'With `format=csv` or `format=xlsx`: `attachment; filename="handlers-YYYY-MM-DD.csv"` (or `.xlsx`)',
        },
      },
      content: {
        'application/json': {
          schema: ExportJsonResponseSchema,
          example: {
            success: true,
            exportedAt: '2026-03-20T12:00:00.000Z',
            count: 1,
            data: [handlerExample],
          } satisfies ExportJsonResponse,
        },
        'text/csv': {
          schema: {
            type: 'string',
            contentMediaType: 'text/csv',
            description: `\`format=csv\`: UTF-8 with a byte-order mark, a header row \`${EXPORT_CSV_COLUMNS.join(',')}\` and a row per handler (by name), CRLF line ends`,
          },
          example: EXPORT_CSV_EXAMPLE,
        },
        [XLSX_CONTENT_TYPE]: {
          // Binary: no example (a workbook is a ZIP archive, bytes no example text can show).
          schema: {
            type: 'string',
            format: 'binary',
            contentMediaType: XLSX_CONTENT_TYPE,
            description:
              '`format=xlsx`: Office Open XML workbook, sheet "Hundeführer" (beyond Excel\'s 1,048,575 rows a sheet, continued on "Hundeführer 2", …)',
          },
        },
      },
    },
    ...directoryErrors(
      [400, 'Ungültige Anfrage: querystring.format muss gleich der Konstanten sein'],
      401,
      403,
      429,
    ),
  },
};
