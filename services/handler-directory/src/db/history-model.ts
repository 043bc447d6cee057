import type { HandlerChangeAction } from '@dogshop/contracts/handler-directory';
import { Schema, type Connection, type Model, type Types } from 'mongoose';
import type { AccountRole } from '../modules/accounts/rules.js';

/** One write to a handler: who, when, and each field before and after (as the API shows them). */
export interface HistoryRecord {
  _id: Types.ObjectId;
  handlerId: Types.ObjectId;
  at: Date;
  action: HandlerChangeAction;
  /** The account that wrote; null for the service itself (the demo data). */
  actor: { id: Types.ObjectId; username: string; role: AccountRole } | null;
  changes: Array<{ field: string; before: unknown; after: unknown }>;
}

export type HistoryModel = Model<HistoryRecord>;

/** The TTL index's name: its period follows HISTORY_RETENTION_DAYS (see openDirectoryDb). */
export const HISTORY_TTL_INDEX = 'at_ttl';

/** The history model, its entries removed by MongoDB `retentionSeconds` after they were written. */
export function registerHistoryModel(
  connection: Connection,
  retentionSeconds: number,
): HistoryModel {
  const historySchema = new Schema<HistoryRecord>(
    {
      handlerId: { type: Schema.Types.ObjectId, required: true },
      at: { type: Date, required: true },
      action: { type: String, required: true },
      actor: {
        type: new Schema(
          {
            id: { type: Schema.Types.ObjectId, required: true },
            username: { type: String, required: true },
            role: { type: String, required: true },
          },
          { _id: false, strict: 'throw' },
        ),
        default: null,
      },
      changes: [
        new Schema(
          { field: String, before: Schema.Types.Mixed, after: Schema.Types.Mixed },
          { _id: false, strict: 'throw', minimize: false },
        ),
      ],
    },
    {
      collection: 'handler_history',
      strict: 'throw',
      strictQuery: 'throw',
      versionKey: false,
      minimize: false,
    },
  );
  // A handler's entries, newest first (the history's order and its cursor).
  historySchema.index({ handlerId: 1, at: -1, _id: -1 });
  historySchema.index({ at: 1 }, { name: HISTORY_TTL_INDEX, expireAfterSeconds: retentionSeconds });
  return connection.model<HistoryRecord>('HandlerChange', historySchema);
}
