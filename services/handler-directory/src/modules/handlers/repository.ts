// The only code that reaches the handlers collection. It does so in one way, through the
// Mongoose model (`db.handlers`): the model owns the collection's schema, validation, indexes,
// timestamps and the name's sort key, and every write and every single read goes through it.
// Reads of many handlers (lists, exports) go to the driver's collection behind that same model
// (handlerDocuments below), because there Mongoose's query casting and per-document cursor cost
// more than the read itself, and because they ask for raw BSON, read in replies of 1,000
// handlers (see decodeRecords and findHandlers): measured, about 40% less CPU per handler, and
// the CSV export at 0.98 of the bare driver's speed (bench B7). Driver operations also never wait
// in Mongoose's command buffer, so an outage fails them at once (503).
import type { HandlerListQuery } from '@dogshop/contracts/handler-directory';
import { mongo, trusted, type ClientSession } from 'mongoose';
import type { DirectoryDb } from '../../db/connection.js';
import type { HandlerRecord } from '../../db/handler-model.js';
import { FIELD_ENTRIES, type HandlerChanges, type StoredHandler } from './fields.js';
import { foldText, nameSortKey, searchTextOf } from './name-sort.js';

/** Lists and exports: by name (German dictionary order), ties by id. */
export const BY_NAME = { nameSort: 1, _id: 1 } as const;
/** The admin list's other order: last changed first, ties by id. */
export const BY_UPDATED = { updatedAt: -1, _id: -1 } as const;

/** A filter on the handlers (built here: matchingFilter, listedAt). */
export type Filter = mongo.Filter<HandlerRecord>;

/**
 * The handlers the public list shows at `now`: available, and either with no end or one still
 * ahead. Every public read (whole, paged, nearest) filters with this, so an end that passes
 * takes the handler out of all of them at once.
 */
export const listedAt = (now: Date): Filter => ({
  available: true,
  // null matches a missing field too (handlers written before it existed).
  $or: [{ availableUntil: null } as unknown as Filter, { availableUntil: { $gt: now } }],
});

/** The others: not available, or their end has passed. */
const notListedAt = (now: Date): Filter => ({
  $or: [{ available: false }, { availableUntil: { $lte: now } }],
});

/** Regular-expression characters of `q`, escaped: the text matches as text. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The admin list's and the export's filter (`q`, `available`, `type`), all of them at `now`. */
export function matchingFilter(
  query: Pick<HandlerListQuery, 'q' | 'available' | 'type'>,
  now: Date,
): Filter {
  const all: Filter[] = [];
  if (query.q !== undefined) {
    all.push({ searchText: { $regex: escapeRegExp(foldText(query.q.trim())) } });
  }
  if (query.available !== undefined) all.push(query.available ? listedAt(now) : notListedAt(now));
  if (query.type !== undefined) all.push({ type: query.type });
  return all.length === 0 ? {} : all.length === 1 ? all[0]! : { $and: all };
}
/** Documents per round trip when streaming; keeps memory flat however many handlers there are. */
export const CURSOR_BATCH_SIZE = 500;
/**
 * Handlers per round trip of an export: 100 round trips for 100,000 handlers rather than 200,
 * while two replies (their BSON, a few hundred kB each) are still all the export holds at once.
 */
export const EXPORT_BATCH_SIZE = 1_000;
/** Handlers an export decodes and hands on at a time (see handlerBatches). */
export const EXPORT_PIECE_SIZE = 50;

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
 * The handlers matching `filter` by name, read raw through the driver, in replies of
 * EXPORT_BATCH_SIZE handlers. Not in one reply: the driver indexes a reply with a small array per
 * document, and a 2 MB reply keeps thousands of them alive across garbage collections. V8 then
 * allocates every later one of them straight in the old generation for the rest of the process
 * (allocation-site pretenuring): after one such read, each exported row cost 40% more CPU.
 */
export async function findHandlers(db: DirectoryDb, filter: Filter): Promise<HandlerRecord[]> {
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

/** Where a page starts: after this key of its order. */
export type PageStart =
  { nameSort: string; id: string } | { updatedAt: number; id: string } | undefined;

/**
 * Up to `limit` handlers matching `filter`, by name or last changed first, after `after` (the
 * last key of the previous page) when given.
 */
export async function findPage(
  db: DirectoryDb,
  filter: Filter,
  order: 'name' | 'updatedAt',
  after: PageStart,
  limit: number,
): Promise<HandlerRecord[]> {
  const afterFilter: Filter | undefined = !after
    ? undefined
    : 'nameSort' in after
      ? {
          $or: [
            { nameSort: { $gt: after.nameSort } },
            { nameSort: after.nameSort, _id: { $gt: new mongo.ObjectId(after.id) } },
          ],
        }
      : {
          $or: [
            { updatedAt: { $lt: new Date(after.updatedAt) } },
            { updatedAt: new Date(after.updatedAt), _id: { $lt: new mongo.ObjectId(after.id) } },
          ],
        };
  const raw = await handlerDocuments(db)
    .find(afterFilter ? { $and: [filter, afterFilter] } : filter, {
      sort: order === 'name' ? BY_NAME : BY_UPDATED,
      projection: PAGE_FIELDS,
      limit,
      raw: true,
    })
    .toArray();
  return decodeRecords(raw);
}

/** The handlers listed at `now` by name (with their sort key), one at a time from a cursor. */
export const listedHandlers = (db: DirectoryDb, now: Date): AsyncIterable<HandlerRecord> =>
  handlerDocuments(db).find(listedAt(now), {
    sort: BY_NAME,
    projection: PAGE_FIELDS,
    batchSize: CURSOR_BATCH_SIZE,
  });

/**
 * Every handler by name, a batch at a time, straight from the driver's cursor (raw, see
 * decodeRecords): iterating per document would cost a promise per handler, and Mongoose's
 * cursor adds its own work on top.
 *
 * So that the database, this process and the client can work at the same time, the next reply
 * is asked for before this one is handed on, and a reply is decoded and handed on
 * EXPORT_PIECE_SIZE handlers at a time (of the bench's CSV export, about 8 kB). Measured on the
 * CSV export only (bench/README.md, B7): neither change alone made it faster, the two together
 * about 1.6 times as fast.
 */
export async function* handlerBatches(
  db: DirectoryDb,
  filter: Filter = {},
): AsyncGenerator<HandlerRecord[]> {
  const cursor = handlerDocuments(db).find(filter, {
    sort: BY_NAME,
    projection: HANDLER_VIEW_FIELDS,
    batchSize: EXPORT_BATCH_SIZE,
    raw: true,
  });
  // Each request for a reply is marked handled when made: it may fail while this generator waits
  // at a `yield` for its caller (or after the caller has stopped), and an unhandled rejection
  // would end the process. Awaiting it below still throws its error.
  const askForReply = () => {
    const request = cursor.hasNext();
    request.catch(() => {});
    return request;
  };
  let nextReply = askForReply();
  try {
    while (await nextReply) {
      const reply = cursor.readBufferedDocuments();
      nextReply = askForReply();
      for (let i = 0; i < reply.length; i += EXPORT_PIECE_SIZE) {
        yield decodeRecords(reply.slice(i, i + EXPORT_PIECE_SIZE));
      }
    }
  } finally {
    await cursor.close();
  }
}

export const countAllHandlers = (db: DirectoryDb) => db.handlers.countDocuments({});

/** `id` is a lower-case ObjectId string. Inside a write, with its session. */
export const findHandlerById = (db: DirectoryDb, id: string, session?: ClientSession) =>
  db.handlers
    .findById(id)
    .session(session ?? null)
    .lean<HandlerRecord>();

/**
 * Inserts a handler with the model's validators (and its sort key, search text, timestamps, id).
 * Through insertMany, not create(): a created document is tracked by the session, and when the
 * transaction fails Mongoose resets it, which throws on the position's strict subdocument and
 * hides the real error (an outage answered 500 instead of 503).
 */
export async function insertHandler(
  db: DirectoryDb,
  fields: Partial<StoredHandler>,
  session: ClientSession,
): Promise<HandlerRecord> {
  const [created] = await insertHandlers(db, [fields], session);
  return created!;
}

/** Inserts many handlers in one round trip (the import), in order, with the model's validators. */
export async function insertHandlers(
  db: DirectoryDb,
  fields: ReadonlyArray<Partial<StoredHandler>>,
  session: ClientSession,
): Promise<HandlerRecord[]> {
  const created = await db.handlers.insertMany(fields, { session, ordered: true });
  return created.map((document) => document.toObject<HandlerRecord>());
}

/**
 * Sets and unsets fields of the handler `before` with the model's validators, in the write's
 * session; the changed record. The search text follows the name, address and phone.
 */
export function updateHandler(
  db: DirectoryDb,
  before: HandlerRecord,
  { set, unset }: HandlerChanges,
  session: ClientSession,
) {
  const searchText = searchTextAfter(before, { set, unset });
  const $set = searchText === undefined ? set : { ...set, searchText };
  return db.handlers
    .findByIdAndUpdate(
      before._id,
      { $set, ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}) },
      { returnDocument: 'after', runValidators: true, session },
    )
    .lean<HandlerRecord>();
}

/**
 * The search text of `before` once `changes` are made, when the write must store it: the name,
 * address or phone change, or the record has none yet. Undefined otherwise.
 */
function searchTextAfter(before: HandlerRecord, { set, unset }: HandlerChanges) {
  const touched = ['name', 'address', 'phone'].some((name) => name in set || name in unset);
  if (!touched && before.searchText) return undefined;
  const after = { ...before, ...set };
  if ('address' in unset) delete after.address;
  return searchTextOf(after);
}

/** The deleted record, or null when there was none. */
export const deleteHandlerById = (db: DirectoryDb, id: string, session: ClientSession) =>
  db.handlers.findByIdAndDelete(id, { session }).lean<HandlerRecord>();

/**
 * Fills in the search text of handlers written before it existed (once per database: afterwards
 * every write keeps it). Runs at start-up.
 */
export async function fillMissingSearchText(db: DirectoryDb): Promise<number> {
  const missing = await db.handlers
    .find({ searchText: trusted({ $exists: false }) }, { name: 1, address: 1, phone: 1 })
    .lean<Array<Pick<HandlerRecord, '_id' | 'name' | 'address' | 'phone'>>>();
  if (missing.length === 0) return 0;
  await db.handlers.bulkWrite(
    missing.map((record) => ({
      updateOne: {
        filter: { _id: record._id },
        update: { $set: { searchText: searchTextOf(record) } },
        timestamps: false,
      },
    })),
  );
  return missing.length;
}

/**
 * The whole stored records of the handlers with these ids (lower-case ObjectId strings), in any
 * order, in the write's session when given (the import reads those it checks and updates this
 * way, up to 1,000 a query): one `$in` query, raw like the lists (see decodeRecords).
 */
export async function findHandlerRecordsByIds(
  db: DirectoryDb,
  ids: readonly string[],
  session?: ClientSession,
): Promise<HandlerRecord[]> {
  if (ids.length === 0) return [];
  const raw = await handlerDocuments(db)
    .find(
      { _id: { $in: ids.map((id) => new mongo.ObjectId(id)) } },
      { session, batchSize: ids.length, raw: true },
    )
    .toArray();
  return decodeRecords(raw);
}

/** One handler's update for updateHandlers: its stored record, and what to set and unset. */
export interface HandlerUpdate {
  before: HandlerRecord;
  changes: HandlerChanges;
}

/**
 * Sets and unsets fields of many handlers in one bulk write, in the write's session (the
 * import's updates, up to 1,000 a call), keeping what updateHandler keeps: the name's sort key
 * (Mongoose's update hook sets it for single updates only), the search text, and the model's
 * validators for the changed values (a bulk write runs none: Mongoose 9 casts bulk updates but
 * has no runValidators for them, so each handler's changed paths are validated here first, with
 * the same validators, as update validators would). The records after the write, in order:
 * `before` with the changes, and the one `updatedAt` the write set on all of them (the changes
 * hold stored values, see fields.ts, which the model stores as they are).
 */
export async function updateHandlers(
  db: DirectoryDb,
  updates: readonly HandlerUpdate[],
  session: ClientSession,
): Promise<HandlerRecord[]> {
  if (updates.length === 0) return [];
  const updatedAt = new Date();
  const planned = await Promise.all(
    updates.map(async ({ before, changes: { set, unset } }) => {
      const unsetNames = Object.keys(unset);
      await db.handlers.validate(
        { ...set, ...Object.fromEntries(unsetNames.map((name) => [name, undefined])) },
        [...Object.keys(set), ...unsetNames],
      );
      const after: HandlerRecord = { ...before, ...set, updatedAt };
      for (const name of unsetNames) delete after[name as keyof HandlerRecord];
      const $set: Partial<HandlerRecord> = { ...set, updatedAt };
      if (typeof set.name === 'string') $set.nameSort = after.nameSort = nameSortKey(set.name);
      const searchText = searchTextAfter(before, { set, unset });
      if (searchText !== undefined) $set.searchText = after.searchText = searchText;
      const operation = {
        updateOne: {
          filter: { _id: before._id },
          update: { $set, ...(unsetNames.length > 0 ? { $unset: unset } : {}) },
          // updatedAt is in $set, one time for all, so that the records returned are exact.
          timestamps: false,
        },
      };
      return { after, operation };
    }),
  );
  const result = await db.handlers.bulkWrite(
    planned.map((p) => p.operation),
    { session, ordered: true },
  );
  if (result.matchedCount !== updates.length) {
    throw new Error(`updateHandlers: ${updates.length - result.matchedCount} handler(s) not found`);
  }
  return planned.map((p) => p.after);
}
