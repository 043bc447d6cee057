import { Schema, type Connection, type HydratedDocument, type Model } from 'mongoose';
import { HANDLER_PATHS, type StoredHandler } from '../modules/handlers/fields.js';
import { nameSortKey, searchTextOf } from '../modules/handlers/name-sort.js';

/** A stored handler: the fields of modules/handlers/fields.ts, the name's sort key and search text. */
export type HandlerRecord = StoredHandler & {
  /** Derived from `name` (see nameSortKey) by the hooks below; never part of a response. */
  nameSort: string;
  /**
   * Name, address and phone folded (searchTextOf), for the admin list's `q`: derived by the
   * hook below for new documents, and by the repository for updates (which knows the record).
   * Absent on records written before it existed until openDirectoryDb fills it in.
   */
  searchText?: string;
};

export type HandlerModel = Model<HandlerRecord>;

// The paths are the field table's (modules/handlers/fields.ts); the sort key is the model's own.
const handlerSchema = new Schema<HandlerRecord>(
  { ...HANDLER_PATHS, nameSort: { type: String, required: true }, searchText: { type: String } },
  {
    collection: 'handlers',
    timestamps: true,
    // A field the schema does not know is a programming error here (bodies are validated first).
    strict: 'throw',
    strictQuery: 'throw',
  },
);

// What the lists filter and sort on: the public list (available, by name) and the admin list.
handlerSchema.index({ available: 1, nameSort: 1, _id: 1 });
handlerSchema.index({ nameSort: 1, _id: 1 });
handlerSchema.index({ updatedAt: -1, _id: -1 });

// The sort key follows the name wherever the model writes it: documents (create, insertMany)
// derive it before validation, updates that set the name set it beside.
handlerSchema.pre('validate', function (this: HydratedDocument<HandlerRecord>) {
  if (typeof this.name === 'string') {
    this.nameSort = nameSortKey(this.name);
    this.searchText = searchTextOf(this);
  }
});
handlerSchema.pre(['findOneAndUpdate', 'updateOne', 'updateMany'], function () {
  const update = this.getUpdate();
  if (!update || Array.isArray(update)) return;
  const name: unknown = update.$set?.name ?? update.name;
  if (typeof name === 'string') this.set('nameSort', nameSortKey(name));
});

export const registerHandlerModel = (connection: Connection): HandlerModel =>
  connection.model<HandlerRecord>('Handler', handlerSchema);
