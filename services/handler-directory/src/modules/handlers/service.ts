import type { Readable } from 'node:stream';
import type {
  AvailabilityBody,
  CreateHandlerBody,
  ExportQuery,
  Gps,
  Handler,
  HandlerChangeAction,
  HandlerListQuery,
  PublicHandler,
  PublicHandlerListQuery,
  UpdateHandlerBody,
} from '@dogshop/contracts/handler-directory';
import { XLSX_CONTENT_TYPE } from '@dogshop/contracts/handler-directory';
import { badRequest, notFound } from '@dogshop/service-kit';
import type { ClientSession } from 'mongoose';
import type { DirectoryDb } from '../../db/connection.js';
import type { HandlerRecord } from '../../db/handler-model.js';
import { MESSAGES } from '../../messages.js';
import { DEMO_HANDLERS } from './demo-directory.js';
import { exportCsv } from './export-csv.js';
import { exportJson } from './export-json.js';
import { exportXlsx } from './export-xlsx.js';
import {
  compareDistanceKeys,
  decodeCursor,
  distanceCursor,
  isDistanceKey,
  isUpdatedKey,
  nameCursor,
  updatedCursor,
  type DistanceKey,
  type NameKey,
} from './cursor.js';
import { changesFromUpdate, storedFromCreate, type HandlerChanges } from './fields.js';
import { distanceKm, roundKm, type Point } from './geo.js';
import { recordChanges, type Actor, type ChangeEntry } from './history.js';
import { toHandler } from './mapper.js';
import {
  countAllHandlers,
  deleteHandlerById,
  findHandlerById,
  findHandlers,
  findPage,
  insertHandler,
  listedAt,
  listedHandlers,
  matchingFilter,
  updateHandler as updateRecord,
  type PageStart,
} from './repository.js';

/**
 * The invalidation topic of the handlers: every write publishes it (through the `changed`
 * argument of the functions below), and every replica then drops its kept public list.
 */
export const HANDLERS_TOPIC = 'handlers';

/**
 * Announces a write to the handlers to every replica; called after the write, before the
 * function returns (SharedState's `invalidation.publish(HANDLERS_TOPIC)`).
 */
export type HandlersChanged = () => Promise<unknown>;

/** Who writes, where, and whom to tell: every write to the handlers takes one. */
export interface HandlerWriter {
  db: DirectoryDb;
  changed: HandlersChanged;
  actor: Actor;
}

/**
 * Runs `write` in a transaction, with the history entries it returns recorded in the same
 * transaction (so a write and its history commit together or not at all), then announces it.
 * The driver retries the whole callback on transient conflicts (e.g. two writes to one handler).
 */
export async function inTransaction<T>(
  writer: HandlerWriter,
  write: (session: ClientSession) => Promise<{ result: T; entries: ChangeEntry[] }>,
): Promise<T> {
  const result = await writer.db.connection.transaction(async (session) => {
    const { result, entries } = await write(session);
    await recordChanges(writer.db, session, writer.actor, entries);
    return result;
  });
  await writer.changed();
  return result;
}

const OBJECT_ID = /^[0-9a-f]{24}$/i;

/** An id that is not an ObjectId names no handler: 404 like an unknown one. */
function handlerId(id: string): string {
  if (!OBJECT_ID.test(id)) throw notFound(MESSAGES.handlerNotFound);
  return id.toLowerCase();
}

function found(record: HandlerRecord | null): Handler {
  if (!record) throw notFound(MESSAGES.handlerNotFound);
  return toHandler(record);
}

/** The admin list: every handler or those matching the filters, by name or last change, paged. */
export async function listHandlers(
  db: DirectoryDb,
  query: HandlerListQuery,
  now = new Date(),
): Promise<{ data: Handler[]; next_cursor?: string }> {
  const filter = matchingFilter(query, now);
  const order = query.sort ?? 'name';
  const { limit, cursor } = query;
  if (limit === undefined) {
    if (cursor !== undefined) throw badRequest(MESSAGES.cursorNeedsLimit);
    const records =
      order === 'name'
        ? await findHandlers(db, filter)
        : await findPage(db, filter, order, undefined, 0);
    return { data: records.map(toHandler) };
  }
  let after: PageStart;
  if (cursor !== undefined) {
    const key = decodeCursor(cursor);
    const fits =
      key && (order === 'name' ? !isDistanceKey(key) && !isUpdatedKey(key) : isUpdatedKey(key));
    if (!key || !fits) throw badRequest(MESSAGES.invalidCursor);
    after = key;
  }
  // One more than asked: whether another page follows, without counting.
  const records = await findPage(db, filter, order, after, limit + 1);
  return pageOf(records, limit, order === 'name' ? nameCursorOf : updatedCursorOf);
}

/** The first `limit` of `records` (read one more than asked), and the next page's cursor. */
function pageOf(
  records: HandlerRecord[],
  limit: number,
  cursorOf: (last: HandlerRecord) => string,
): { data: Handler[]; next_cursor?: string } {
  const page = records.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(toHandler),
    ...(records.length > limit && last ? { next_cursor: cursorOf(last) } : {}),
  };
}

const nameCursorOf = (record: HandlerRecord) =>
  nameCursor({ nameSort: record.nameSort, id: record._id.toHexString() });
const updatedCursorOf = (record: HandlerRecord) =>
  updatedCursor({ updatedAt: record.updatedAt.getTime(), id: record._id.toHexString() });

/** One answer of the public list: all of it, or a page (`limit`) and the cursor of the next. */
export interface PublicHandlerPage {
  data: PublicHandler[];
  /** Only with `limit`, when more handlers follow. */
  next_cursor?: string;
}

/** Whether the query asks for the whole list by name, the answer every replica keeps. */
export const asksForWholeList = (query: PublicHandlerListQuery): boolean =>
  Object.values(query).every((value) => value === undefined);

/** The whole public list at `now`: every handler listed then, by name. */
export async function listAllPublicHandlers(
  db: DirectoryDb,
  now = new Date(),
): Promise<PublicHandler[]> {
  return (await findHandlers(db, listedAt(now))).map(toHandler);
}

/**
 * When a list of handlers stops being the public list with no write: the earliest
 * `availableUntil` among them (ms since the epoch), or undefined when none has one.
 */
export function listValidUntil(handlers: readonly Handler[]): number | undefined {
  let earliest: number | undefined;
  for (const { availableUntil } of handlers) {
    if (availableUntil === null) continue;
    const at = Date.parse(availableUntil);
    if (earliest === undefined || at < earliest) earliest = at;
  }
  return earliest;
}

/**
 * The public list: the available handlers by name, or with `lat` and `lng` (both or neither)
 * those with a position nearest first, optionally within `radius_km` (only with a point). With
 * `limit`, one page of that size after `cursor` (a `next_cursor` of the same order and point).
 */
export async function listPublicHandlers(
  db: DirectoryDb,
  query: PublicHandlerListQuery,
  now = new Date(),
): Promise<PublicHandlerPage> {
  const { lat, lng, radius_km: radiusKm, limit } = query;
  if ((lat === undefined) !== (lng === undefined)) throw badRequest(MESSAGES.nearestNeedsBoth);
  const point = lat === undefined || lng === undefined ? undefined : { lat, lng };
  if (!point && radiusKm !== undefined) throw badRequest(MESSAGES.radiusNeedsPoint);
  const after = pageStart(query, point);
  if (!point) {
    if (limit === undefined) return { data: await listAllPublicHandlers(db, now) };
    return namePage(db, now, after, limit);
  }
  return nearestHandlers(db, now, point, radiusKm, after as DistanceKey | undefined, limit);
}

/** The key the page starts after: the cursor's, when it fits the query (else 400). */
function pageStart(
  query: PublicHandlerListQuery,
  point: Point | undefined,
): NameKey | DistanceKey | undefined {
  if (query.cursor === undefined) return undefined;
  if (query.limit === undefined) throw badRequest(MESSAGES.cursorNeedsLimit);
  const key = decodeCursor(query.cursor);
  if (!key || isUpdatedKey(key)) throw badRequest(MESSAGES.invalidCursor);
  const samePoint =
    point && isDistanceKey(key)
      ? key.point.lat === point.lat && key.point.lng === point.lng
      : !point && !isDistanceKey(key);
  if (!samePoint) throw badRequest(MESSAGES.cursorOfOtherList);
  return key;
}

async function namePage(
  db: DirectoryDb,
  now: Date,
  after: NameKey | undefined,
  limit: number,
): Promise<PublicHandlerPage> {
  // One more than asked: whether another page follows, without counting.
  const records = await findPage(db, listedAt(now), 'name', after, limit + 1);
  return pageOf(records, limit, nameCursorOf);
}

/**
 * Available handlers with a position, nearest first (ties by name key, then id), optionally
 * within a radius, all or one page. Distances are computed here rather than with $geoNear: the
 * directory is small, and the same code then runs on every MongoDB, the development stand-in
 * included. A page costs the same reading as the whole list; it saves the bytes.
 */
async function nearestHandlers(
  db: DirectoryDb,
  now: Date,
  point: Point,
  radiusKm: number | undefined,
  after: DistanceKey | undefined,
  limit: number | undefined,
): Promise<PublicHandlerPage> {
  const near: Array<{ km: number; nameSort: string; id: string; record: HandlerRecord }> = [];
  for await (const record of listedHandlers(db, now)) {
    if (!record.gps) continue;
    const km = distanceKm(point, record.gps);
    if (radiusKm !== undefined && km > radiusKm) continue;
    const entry = { km, nameSort: record.nameSort, id: record._id.toHexString(), record };
    if (after && compareDistanceKeys(entry, after) <= 0) continue;
    near.push(entry);
  }
  near.sort(compareDistanceKeys);
  const page = limit === undefined ? near : near.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(({ km, record }) => ({ ...toHandler(record), distance_km: roundKm(km) })),
    ...(limit !== undefined && near.length > limit && last
      ? {
          next_cursor: distanceCursor({ km: last.km, nameSort: last.nameSort, id: last.id, point }),
        }
      : {}),
  };
}

/** True while a handler with this id (lower-case hex) exists. */
export const handlerExists = async (db: DirectoryDb, id: string): Promise<boolean> =>
  (await findHandlerById(db, id)) !== null;

export async function getHandler(db: DirectoryDb, id: string): Promise<Handler> {
  return found(await findHandlerById(db, handlerId(id)));
}

/**
 * The availability rules of a write, at `now`: an end given must lie ahead, and every write
 * that gives `available` or `availableUntil` confirms the availability now.
 */
export function withAvailabilityRules(changes: HandlerChanges, body: UpdateHandlerBody, now: Date) {
  const until = changes.set.availableUntil;
  if (until !== undefined && until.getTime() <= now.getTime()) {
    throw badRequest(MESSAGES.availableUntilInThePast);
  }
  if (body.available !== undefined || body.availableUntil !== undefined) {
    changes.set.availabilityConfirmedAt = now;
  }
  return changes;
}

/**
 * Stores the body's fields (an empty optional text or null is none) and the defaults (fields.ts);
 * records the creation in the history.
 */
export async function createHandler(
  writer: HandlerWriter,
  body: CreateHandlerBody,
  now = new Date(),
): Promise<Handler> {
  const { set } = withAvailabilityRules({ set: storedFromCreate(body), unset: {} }, body, now);
  set.availabilityConfirmedAt = now;
  return inTransaction(writer, async (session) => {
    const created = toHandler(await insertHandler(writer.db, set, session));
    return {
      result: created,
      entries: [{ handlerId: created._id, action: 'create', before: null, after: created }],
    };
  });
}

/** Changes the handler's fields in a transaction with its history entry; 404 when there is none. */
async function changeHandler(
  writer: HandlerWriter,
  id: string,
  action: HandlerChangeAction,
  changes: HandlerChanges,
): Promise<Handler> {
  const key = handlerId(id);
  return inTransaction(writer, async (session) => {
    const before = await findHandlerById(writer.db, key, session);
    if (!before) throw notFound(MESSAGES.handlerNotFound);
    const after = await updateRecord(writer.db, before, changes, session);
    const shown = found(after);
    return {
      result: shown,
      entries: [{ handlerId: key, action, before: toHandler(before), after: shown }],
    };
  });
}

/** Changes only the fields given; null (and an empty address or type) removes an optional field. */
export const updateHandler = (
  writer: HandlerWriter,
  id: string,
  body: UpdateHandlerBody,
  now = new Date(),
): Promise<Handler> =>
  changeHandler(writer, id, 'update', withAvailabilityRules(changesFromUpdate(body), body, now));

/**
 * Sets the whole availability: `available`, and its end (`availableUntil`; left out or null:
 * until further notice).
 */
export const setAvailability = (
  writer: HandlerWriter,
  id: string,
  body: AvailabilityBody,
  now = new Date(),
): Promise<Handler> => {
  const given = { available: body.available, availableUntil: body.availableUntil ?? null };
  return changeHandler(
    writer,
    id,
    'availability',
    withAvailabilityRules(changesFromUpdate(given), given, now),
  );
};

export const setGps = (writer: HandlerWriter, id: string, gps: Gps): Promise<Handler> =>
  changeHandler(writer, id, 'gps', changesFromUpdate({ gps }));

export async function deleteHandler(writer: HandlerWriter, id: string): Promise<void> {
  const key = handlerId(id);
  await inTransaction(writer, async (session) => {
    const deleted = await deleteHandlerById(writer.db, key, session);
    if (!deleted) throw notFound(MESSAGES.handlerNotFound);
    return {
      result: undefined,
      entries: [{ handlerId: key, action: 'delete', before: toHandler(deleted), after: null }],
    };
  });
}

/** An export file: what to send and how to label it. */
export interface HandlerExport {
  contentType: string;
  /** The download's file name; absent for JSON, which is not offered as a download. */
  filename?: string;
  /** Streams from one cursor as the client reads; a failing cursor destroys it. */
  stream: Readable;
}

/**
 * Every handler in the asked format (JSON by default; `delimiter` only affects CSV). Files are
 * named after the UTC day of `exportedAt`.
 */
export function exportHandlers(
  db: DirectoryDb,
  query: ExportQuery,
  exportedAt: Date,
): HandlerExport {
  const day = exportedAt.toISOString().slice(0, 10);
  const filter = matchingFilter(query, exportedAt);
  if (query.format === 'csv') {
    return {
      contentType: 'text/csv; charset=utf-8',
      filename: `handlers-${day}.csv`,
      stream: exportCsv(db, filter, query.delimiter ?? 'comma'),
    };
  }
  if (query.format === 'xlsx') {
    return {
      contentType: XLSX_CONTENT_TYPE,
      filename: `handlers-${day}.xlsx`,
      stream: exportXlsx(db, filter),
    };
  }
  return {
    contentType: 'application/json; charset=utf-8',
    stream: exportJson(db, filter, exportedAt),
  };
}

/** Loads the demo directory into an empty database; the number of handlers added (0: not empty). */
export async function seedDemoDirectory(
  db: DirectoryDb,
  changed: HandlersChanged,
): Promise<number> {
  if ((await countAllHandlers(db)) > 0) return 0;
  // Written by the service itself (no actor); one announcement for the whole set, after the last.
  const quietly: HandlerWriter = { db, changed: async () => {}, actor: null };
  for (const handler of DEMO_HANDLERS) await createHandler(quietly, handler);
  await changed();
  return DEMO_HANDLERS.length;
}
