// The only code that reaches the handlers collection. It does so in one way, through the
// Mongoose model (`db.handlers`): the model owns the collection's schema, validation, indexes,
// timestamps and the name's sort key, and every write and every single read goes through it.
// Reads of many handlers (lists, exports) go to the driver's collection behind that same model
// (handlerDocuments below), because there Mongoose's query casting and per-document cursor cost
// more than the read itself, and because they ask for raw BSON, read in replies of 1,000
// handlers (see decodeRecords and findHandlers): measured, about 40% less CPU per handler, and
// the CSV export at 0.98 of the bare driver's speed (bench B7). Driver operations also never wait
// in Mongoose's command buffer, so an outage fails them at once (503).
import { mongo } from 'mongoose';
import type { DirectoryDb } from '../../db/connection.js';
import type { HandlerRecord } from '../../db/handler-model.js';
import { FIELD_ENTRIES, type HandlerChanges, type StoredHandler } from './fields.js';

/** Lists and exports: by name (German dictionary order), ties by id. */
export const BY_NAME = { nameSort: 1, _id: 1 } as const;
/** Documents per round trip when streaming; keeps memory flat however many handlers there are. */
export const CURSOR_BATCH_SIZE = 500;
/**
 * Handlers per round trip of an export: 100 round trips for 100,000 handlers rather than 200,
 * while a batch (its BSON and its records, a few hundred kB) is still all the export holds at once.
 */
export const EXPORT_BATCH_SIZE = 1_000;

/**
 * The stored fields a handler view reads (the field table's, see mapper.ts; MongoDB adds `_id`):
 * lists and exports ask the database for only these, so the internal ones (nameSort, __v) are
 * neither sent nor decoded.
 */
export const HANDLER_VIEW_FIELDS: Readonly<Record<string, 1>> = Object.fromEntries(
  FIELD_ENTRIES.flatMap(([name]) => (name === '_id' ? [] : [[name, 1]])),
);

/**
 * The driver's collection behind the model: the same collection on the same connection (whose
 * driver database exists, as openDirectoryDb registers the models once connected). A handle costs
 * next to nothing to make, and none is kept.
 */
const handlerDocuments = (db: DirectoryDb): mongo.Collection<HandlerRecord> =>
  db.handlers.db.db!.collection<HandlerRecord>(db.handlers.collection.collectionName);

/**
 * Reads of many handlers ask the driver for raw BSON (`raw: true`) and decode it with this: the
 * driver's own decoder with its defaults, without the lazy per-document wrapper the driver builds
 * first otherwise, which measured about 40% less CPU per handler. (The driver's typings don't
 * model `raw`: its documents are then byte arrays.)
 */
export const decodeRecords = (raw: unknown[]): HandlerRecord[] =>
  (raw as Uint8Array[]).map((bytes) => mongo.BSON.deserialize(bytes) as HandlerRecord);

/**
 * Every handler (or every available one) by name, read raw through the driver, in replies of
 * EXPORT_BATCH_SIZE handlers. Not in one reply: the driver indexes a reply with a small array per
 * document, and a 2 MB reply keeps thousands of them alive across garbage collections. V8 then
 * allocates every later one of them straight in the old generation for the rest of the process
 * (allocation-site pretenuring): after one such read, each exported row cost 40% more CPU.
 */
export async function findHandlers(
  db: DirectoryDb,
  opts: { onlyAvailable: boolean },
): Promise<HandlerRecord[]> {
  const filter = opts.onlyAvailable ? { available: true } : {};
  const raw = await handlerDocuments(db)
    .find(filter, {
      sort: BY_NAME,
      projection: HANDLER_VIEW_FIELDS,
      batchSize: EXPORT_BATCH_SIZE,
      raw: true,
    })
    .toArray();
  return decodeRecords(raw);
}

/** The view's fields and the stored sort key, which a page's cursor is made of. */
const PAGE_FIELDS = { ...HANDLER_VIEW_FIELDS, nameSort: 1 } as const;

/**
 * Up to `limit` available handlers by name, after `after` (a name key: stored `nameSort`, then
 * id) when given. The index on {available, nameSort, _id} serves both branches of the `$or`.
 */
export async function findAvailablePage(
  db: DirectoryDb,
  after: { nameSort: string; id: string } | undefined,
  limit: number,
): Promise<HandlerRecord[]> {
  const filter = after
    ? {
        available: true,
        $or: [
          { nameSort: { $gt: after.nameSort } },
          { nameSort: after.nameSort, _id: { $gt: new mongo.ObjectId(after.id) } },
        ],
      }
    : { available: true };
  const raw = await handlerDocuments(db)
    .find(filter, { sort: BY_NAME, projection: PAGE_FIELDS, limit, raw: true })
    .toArray();
  return decodeRecords(raw);
}

/** The available handlers by name (with their sort key), one at a time from a cursor. */
export const availableHandlers = (db: DirectoryDb): AsyncIterable<HandlerRecord> =>
  handlerDocuments(db).find(
    { available: true },
    { sort: BY_NAME, projection: PAGE_FIELDS, batchSize: CURSOR_BATCH_SIZE },
  );

/**
 * Every handler by name, a batch at a time, straight from the driver's cursor (raw, see
 * decodeRecords): iterating per document would cost a promise per handler, and Mongoose's
 * cursor adds its own work on top.
 */
export async function* handlerBatches(db: DirectoryDb): AsyncGenerator<HandlerRecord[]> {
  const cursor = handlerDocuments(db).find(
    {},
    { sort: BY_NAME, projection: HANDLER_VIEW_FIELDS, batchSize: EXPORT_BATCH_SIZE, raw: true },
  );
  try {
    while (await cursor.hasNext()) {
      yield decodeRecords(cursor.readBufferedDocuments());
    }
  } finally {
    await cursor.close();
  }
}

export const countAllHandlers = (db: DirectoryDb) => db.handlers.countDocuments({});

/** `id` is a lower-case ObjectId string. */
export const findHandlerById = (db: DirectoryDb, id: string) =>
  db.handlers.findById(id).lean<HandlerRecord>();

/** Inserts a handler with the model's validators (and its sort key, timestamps and id). */
export async function insertHandler(
  db: DirectoryDb,
  fields: Partial<StoredHandler>,
): Promise<HandlerRecord> {
  const created = await db.handlers.create(fields);
  return created.toObject<HandlerRecord>();
}

/** Sets and unsets fields with the model's validators; the changed record, or null. */
export const updateHandlerById = (db: DirectoryDb, id: string, { set, unset }: HandlerChanges) =>
  db.handlers
    .findByIdAndUpdate(
      id,
      {
        ...(Object.keys(set).length > 0 ? { $set: set } : {}),
        ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}),
      },
      { returnDocument: 'after', runValidators: true },
    )
    .lean<HandlerRecord>();

/** The deleted record, or null when there was none. */
export const deleteHandlerById = (db: DirectoryDb, id: string) =>
  db.handlers.findByIdAndDelete(id).lean<HandlerRecord>();
