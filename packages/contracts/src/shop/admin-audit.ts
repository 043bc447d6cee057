// The back office's audit: every back-office write with its author, newest first. Admins only.
import { Type, type Static } from 'typebox';
import { documented } from '../common.js';
import { ActorSchema } from './access.js';
import { shopErrors } from './errors.js';
import { CursorPageSchema, cursorQuery } from './orders.js';
import { DateTime } from './shared.js';
import { shopTag } from './tags.js';

/** A record as it was: the fields the change concerned (never a secret, a key or a hash). */
const Snapshot = (description: string) =>
  Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], { description });

export const AuditEntrySchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    at: DateTime(),
    actor: ActorSchema,
    action: Type.String({ description: 'What was done, e.g. `order.status`, `review.moderate`' }),
    resource: Type.String({
      description: 'The kind of record: `order`, `review`, `staff`, `api_key` …',
    }),
    resource_id: Type.String({ description: 'The record’s id, as text' }),
    before: Snapshot('The record before the change; null for a creation or a note'),
    after: Snapshot('The record after the change; null when nothing remains'),
  },
  { $id: 'AuditEntry', title: 'AuditEntry', additionalProperties: false },
);
export type AuditEntry = Static<typeof AuditEntrySchema>;

export const AuditListQuerySchema = Type.Object(
  {
    resource: Type.Optional(
      Type.String({
        pattern: '^[a-z][a-z_]{0,39}$',
        description: 'Only the entries of this kind of record',
        examples: ['order'],
      }),
    ),
    id: Type.Optional(
      Type.String({
        pattern: '^[0-9A-Za-z_-]{1,64}$',
        description: 'Only the entries of this record (needs `resource`)',
        examples: ['1001'],
      }),
    ),
    ...cursorQuery(50),
  },
  { additionalProperties: false },
);
export type AuditListQuery = Static<typeof AuditListQuerySchema>;

export const AuditListResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Array(AuditEntrySchema),
    pagination: CursorPageSchema,
  },
  { $id: 'AuditListResponse', additionalProperties: false },
);

export const listAuditEntriesOperation = {
  tags: shopTag('Back office'),
  operationId: 'listAuditEntries',
  summary: 'The audit: who changed what',
  description: [
    'Every back-office write (orders, reviews, staff accounts, keys …) with its author, when, and',
    'the record before and after, newest first, page by page (`cursor`). `resource` (and `id`)',
    'narrow it to a kind of record (one record). Entries are kept at least a year (nothing deletes',
    'them). Admins only: the scope `audit:read`, which no other role has.',
  ].join('\n'),
  querystring: AuditListQuerySchema,
  response: {
    200: documented(AuditListResponseSchema, {
      description: 'A page of entries',
      examples: [
        {
          success: true,
          data: [
            {
              id: 412,
              at: '2026-11-28T10:15:02.000Z',
              actor: { type: 'staff', id: 3, name: 'Mia Berger' },
              action: 'review.moderate',
              resource: 'review',
              resource_id: '31',
              before: { hidden: false },
              after: { hidden: true },
            },
          ],
          pagination: { limit: 50, next_cursor: null },
        },
      ],
    }),
    ...shopErrors([400, 'querystring.id needs querystring.resource']),
  },
};
