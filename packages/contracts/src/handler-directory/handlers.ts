import { Type, type Static } from 'typebox';
import { SuccessMessageSchema } from '../common.js';
import { DateTime, ObjectIdString } from './shared.js';

export const Latitude = (description = 'Degrees north (WGS 84)', examples?: number[]) =>
  Type.Number({ minimum: -90, maximum: 90, description, ...(examples ? { examples } : {}) });
export const Longitude = (description = 'Degrees east (WGS 84)', examples?: number[]) =>
  Type.Number({ minimum: -180, maximum: 180, description, ...(examples ? { examples } : {}) });

/** GPS position of a handler; both coordinates are required when a position is given. */
export const GpsSchema = Type.Object(
  { lat: Latitude(), lng: Longitude() },
  { title: 'Gps', additionalProperties: false },
);
export type Gps = Static<typeof GpsSchema>;

export const HandlerSchema = Type.Object(
  {
    _id: ObjectIdString('Assigned by the service'),
    name: Type.String(),
    address: Type.Optional(Type.String()),
    phone: Type.String(),
    type: Type.Optional(Type.String({ description: 'Short type code' })),
    available: Type.Boolean(),
    gps: Type.Optional(GpsSchema),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { title: 'Handler', additionalProperties: false },
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
  { title: 'PublicHandler', additionalProperties: false },
);
export type PublicHandler = Static<typeof PublicHandlerSchema>;

const Name = Type.String({
  minLength: 1,
  maxLength: 200,
  description: '1–200 characters after trimming',
});
const Phone = Type.String({
  minLength: 1,
  maxLength: 50,
  description: '1–50 characters after trimming',
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

/** Read-only fields (`_id`, `createdAt`, `updatedAt`, `__v`) sent back are ignored, not refused. */
export const CreateHandlerBodySchema = Type.Object(
  {
    name: Name,
    phone: Phone,
    address: Type.Optional(Address),
    type: Type.Optional(TypeCode),
    available: Type.Optional(Available({ default: true })),
    gps: Type.Optional(OptionalGps),
  },
  { title: 'CreateHandlerBody', additionalProperties: false },
);
export type CreateHandlerBody = Static<typeof CreateHandlerBodySchema>;

/** Partial update: only the fields given change; null removes an optional field. */
export const UpdateHandlerBodySchema = Type.Object(
  {
    name: Type.Optional(Name),
    phone: Type.Optional(Phone),
    address: Type.Optional(Address),
    type: Type.Optional(TypeCode),
    available: Type.Optional(Available()),
    gps: Type.Optional(OptionalGps),
  },
  { title: 'UpdateHandlerBody', additionalProperties: false, minProperties: 1 },
);
export type UpdateHandlerBody = Static<typeof UpdateHandlerBodySchema>;

export const AvailabilityBodySchema = Type.Object(
  { available: Available() },
  { title: 'AvailabilityBody', additionalProperties: false },
);
export type AvailabilityBody = Static<typeof AvailabilityBodySchema>;

export const GpsBodySchema = Type.Object(
  { lat: Latitude(), lng: Longitude() },
  { title: 'GpsBody', additionalProperties: false },
);
export type GpsBody = Static<typeof GpsBodySchema>;

/** Any string: an id that is not an ObjectId names no handler and answers 404, not 400. */
export const HandlerIdParamsSchema = Type.Object(
  { id: Type.String({ description: 'Handler `_id`', examples: ['665f1c2ab4d3e8a1c2f0b123'] }) },
  { additionalProperties: false },
);
export type HandlerIdParams = Static<typeof HandlerIdParamsSchema>;

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
  },
  { additionalProperties: false },
);
export type PublicHandlerListQuery = Static<typeof PublicHandlerListQuerySchema>;

export const HandlerResponseSchema = Type.Object(
  { success: Type.Literal(true), data: HandlerSchema },
  { title: 'HandlerResponse', additionalProperties: false },
);
export const HandlerListResponseSchema = Type.Object(
  { success: Type.Literal(true), data: Type.Array(HandlerSchema) },
  { title: 'HandlerListResponse', additionalProperties: false },
);
export const PublicHandlerListResponseSchema = Type.Object(
  { success: Type.Literal(true), data: Type.Array(PublicHandlerSchema) },
  { title: 'PublicHandlerListResponse', additionalProperties: false },
);
export const DeleteHandlerResponseSchema = SuccessMessageSchema;

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
  'lat',
  'lng',
  'createdAt',
  'updatedAt',
] as const;

export const ExportJsonResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    exportedAt: DateTime(),
    count: Type.Integer({ minimum: 0 }),
    data: Type.Array(HandlerSchema),
  },
  { title: 'HandlerExport', additionalProperties: false },
);
export type ExportJsonResponse = Static<typeof ExportJsonResponseSchema>;
