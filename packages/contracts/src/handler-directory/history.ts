// The change history of the handlers: who changed what, when. Every write to a handler records
// an entry with the write (create, update, availability, position, delete, import).
import { Type, type Static } from 'typebox';
import { documented } from '../common.js';
import { AccountRoleSchema } from './accounts.js';
import { directoryErrors } from './errors.js';
import { GpsSchema, HandlerIdParamsSchema } from './handlers.js';
import { DateTime, ObjectIdString } from './shared.js';
import { directoryTag } from './tags.js';

/** A position as a value of a change (GpsSchema's fields; the named schema appears once only). */
const GpsValue = Type.Object(GpsSchema.properties, { additionalProperties: false });

/** A field's value as the API's Handler shows it; null: none. */
const FieldValue = Type.Union([
  Type.String(),
  Type.Number(),
  Type.Boolean(),
  GpsValue,
  Type.Null(),
]);

export const FieldChangeSchema = Type.Object(
  {
    field: Type.String({ description: 'A field of the Handler', examples: ['available'] }),
    before: FieldValue,
    after: FieldValue,
  },
  { $id: 'FieldChange', title: 'FieldChange', additionalProperties: false },
);
export type FieldChange = Static<typeof FieldChangeSchema>;

export const ChangeActorSchema = Type.Union(
  [
    Type.Object(
      { id: ObjectIdString(), username: Type.String(), role: AccountRoleSchema },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { description: 'The account that made the change; null: the service itself (demo data)' },
);

export const HandlerChangeSchema = Type.Object(
  {
    id: ObjectIdString(),
    handlerId: ObjectIdString(),
    at: DateTime(),
    action: Type.Union(
      [
        Type.Literal('create'),
        Type.Literal('update'),
        Type.Literal('availability'),
        Type.Literal('gps'),
        Type.Literal('delete'),
        Type.Literal('import'),
      ],
      { description: 'The write: `create`, `update`, `availability`, `gps`, `delete` or `import`' },
    ),
    actor: ChangeActorSchema,
    changes: Type.Array(FieldChangeSchema, {
      description:
        'Each field that changed, with its value before and after (a create: before null; a delete: after null)',
    }),
  },
  { $id: 'HandlerChange', title: 'HandlerChange', additionalProperties: false },
);
export type HandlerChange = Static<typeof HandlerChangeSchema>;
export type HandlerChangeAction = HandlerChange['action'];

export const HISTORY_MAX_LIMIT = 200;

export const HistoryQuerySchema = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: HISTORY_MAX_LIMIT,
        default: 50,
        description: 'Page size (default 50)',
        examples: [20],
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'The `next_cursor` of the previous page: the older entries after it',
        examples: ['WzE3NzQwODAwMDAwMDAsIjY2NWYxYzJhYjRkM2U4YTFjMmYwYzAwMSJd'],
      }),
    ),
  },
  { additionalProperties: false },
);
export type HistoryQuery = Static<typeof HistoryQuerySchema>;

export const HandlerHistoryResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Array(HandlerChangeSchema),
    next_cursor: Type.Optional(
      Type.String({ description: 'When older entries follow: pass it as `cursor`' }),
    ),
  },
  { $id: 'HandlerHistoryResponse', title: 'HandlerHistoryResponse', additionalProperties: false },
);
export type HandlerHistoryResponse = Static<typeof HandlerHistoryResponseSchema>;

const historyExample: HandlerChange = {
  id: '665f1c2ab4d3e8a1c2f0c001',
  handlerId: '665f1c2ab4d3e8a1c2f0b123',
  at: '2026-03-21T08:00:00.000Z',
  action: 'availability',
  actor: { id: '665f1c2ab4d3e8a1c2f0b001', username: 'anna.bergmann', role: 'handler' },
  changes: [
    { field: 'availableUntil', before: null, after: '2026-03-22T19:00:00.000Z' },
    {
      field: 'availabilityConfirmedAt',
      before: '2026-03-02T16:10:27.000Z',
      after: '2026-03-21T08:00:00.000Z',
    },
  ],
};

export const getHandlerHistoryOperation = {
  tags: directoryTag('Handlers'),
  operationId: 'getHandlerHistory',
  summary: "A handler's change history, newest first",
  description:
    'Every write to the handler: who (account id, username, role), when, and each field before and after. Recorded atomically with the write; kept at least a year (`HISTORY_RETENTION_DAYS`). A deleted handler keeps its history, readable by its id; an id with no history answers an empty list. Admin or viewer.',
  params: HandlerIdParamsSchema,
  querystring: HistoryQuerySchema,
  response: {
    200: documented(HandlerHistoryResponseSchema, {
      description: 'The entries, newest first, all or one page',
      examples: [{ success: true, data: [historyExample] }],
    }),
    ...directoryErrors(
      [400, 'Ungültige Anfrage: cursor ist kein Cursor dieser Liste (next_cursor einer Seite)'],
      401,
      403,
      429,
    ),
  },
};
