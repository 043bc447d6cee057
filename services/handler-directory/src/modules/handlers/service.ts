import type { Readable } from 'node:stream';
import type {
  CreateHandlerBody,
  ExportQuery,
  Gps,
  Handler,
  PublicHandler,
  PublicHandlerListQuery,
  UpdateHandlerBody,
} from '@dogshop/contracts/handler-directory';
import { XLSX_CONTENT_TYPE } from '@dogshop/contracts/handler-directory';
import { badRequest, notFound } from '@dogshop/service-kit';
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
  nameCursor,
  type DistanceKey,
  type NameKey,
} from './cursor.js';
import { changesFromUpdate, storedFromCreate } from './fields.js';
import { distanceKm, roundKm, type Point } from './geo.js';
import { toHandler } from './mapper.js';
import {
  availableHandlers,
  countAllHandlers,
  deleteHandlerById,
  findAvailablePage,
  findHandlerById,
  findHandlers,
  insertHandler,
  updateHandlerById,
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

/** Every handler, available or not, by name (the administrator area). */
export async function listHandlers(db: DirectoryDb): Promise<Handler[]> {
  return (await findHandlers(db, { onlyAvailable: false })).map(toHandler);
}

/** One answer of the public list: all of it, or a page (`limit`) and the cursor of the next. */
export interface PublicHandlerPage {
  data: PublicHandler[];
  /** Only with `limit`, when more handlers follow. */
  next_cursor?: string;
}

/** Whether the query asks for the whole list by name, the answer every replica keeps. */
export const asksForWholeList = (query: PublicHandlerListQuery): boolean =>
  Object.values(query).every((value) => value === undefined);

/** The whole public list: every available handler, by name. */
export async function listAllPublicHandlers(db: DirectoryDb): Promise<PublicHandler[]> {
  return (await findHandlers(db, { onlyAvailable: true })).map(toHandler);
}

/**
 * The public list: the available handlers by name, or with `lat` and `lng` (both or neither)
 * those with a position nearest first, optionally within `radius_km` (only with a point). With
 * `limit`, one page of that size after `cursor` (a `next_cursor` of the same order and point).
 */
export async function listPublicHandlers(
  db: DirectoryDb,
  query: PublicHandlerListQuery,
): Promise<PublicHandlerPage> {
  const { lat, lng, radius_km: radiusKm, limit } = query;
  if ((lat === undefined) !== (lng === undefined)) throw badRequest(MESSAGES.nearestNeedsBoth);
  const point = lat === undefined || lng === undefined ? undefined : { lat, lng };
  if (!point && radiusKm !== undefined) throw badRequest(MESSAGES.radiusNeedsPoint);
  const after = pageStart(query, point);
  if (!point) {
    if (limit === undefined) return { data: await listAllPublicHandlers(db) };
    return namePage(db, after, limit);
  }
  return nearestHandlers(db, point, radiusKm, after as DistanceKey | undefined, limit);
}

/** The key the page starts after: the cursor's, when it fits the query (else 400). */
function pageStart(
  query: PublicHandlerListQuery,
  point: Point | undefined,
): NameKey | DistanceKey | undefined {
  if (query.cursor === undefined) return undefined;
  if (query.limit === undefined) throw badRequest(MESSAGES.cursorNeedsLimit);
  const key = decodeCursor(query.cursor);
  if (!key) throw badRequest(MESSAGES.invalidCursor);
  const samePoint =
    point && isDistanceKey(key)
      ? key.point.lat === point.lat && key.point.lng === point.lng
      : !point && !isDistanceKey(key);
  if (!samePoint) throw badRequest(MESSAGES.cursorOfOtherList);
  return key;
}

async function namePage(
  db: DirectoryDb,
  after: NameKey | undefined,
  limit: number,
): Promise<PublicHandlerPage> {
  // One more than asked: whether another page follows, without counting.
  const records = await findAvailablePage(db, after, limit + 1);
  const page = records.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(toHandler),
    ...(records.length > limit && last
      ? { next_cursor: nameCursor({ nameSort: last.nameSort, id: last._id.toHexString() }) }
      : {}),
  };
}

/**
 * Available handlers with a position, nearest first (ties by name key, then id), optionally
 * within a radius, all or one page. Distances are computed here rather than with $geoNear: the
 * directory is small, and the same code then runs on every MongoDB, the development stand-in
 * included. A page costs the same reading as the whole list; it saves the bytes.
 */
async function nearestHandlers(
  db: DirectoryDb,
  point: Point,
  radiusKm: number | undefined,
  after: DistanceKey | undefined,
  limit: number | undefined,
): Promise<PublicHandlerPage> {
  const near: Array<{ km: number; nameSort: string; id: string; record: HandlerRecord }> = [];
  for await (const record of availableHandlers(db)) {
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

export async function getHandler(db: DirectoryDb, id: string): Promise<Handler> {
  return found(await findHandlerById(db, handlerId(id)));
}

/** Stores the body's fields (an empty optional text or null is none) and the defaults (fields.ts). */
export async function createHandler(
  db: DirectoryDb,
  changed: HandlersChanged,
  body: CreateHandlerBody,
): Promise<Handler> {
  const created = await insertHandler(db, storedFromCreate(body));
  await changed();
  return toHandler(created);
}

/** Changes only the fields given; null (and an empty address or type) removes an optional field. */
export async function updateHandler(
  db: DirectoryDb,
  changed: HandlersChanged,
  id: string,
  body: UpdateHandlerBody,
): Promise<Handler> {
  return written(changed, await updateHandlerById(db, handlerId(id), changesFromUpdate(body)));
}

export const setAvailability = (
  db: DirectoryDb,
  changed: HandlersChanged,
  id: string,
  available: boolean,
): Promise<Handler> => updateHandler(db, changed, id, { available });

export const setGps = (
  db: DirectoryDb,
  changed: HandlersChanged,
  id: string,
  gps: Gps,
): Promise<Handler> => updateHandler(db, changed, id, { gps });

export async function deleteHandler(
  db: DirectoryDb,
  changed: HandlersChanged,
  id: string,
): Promise<void> {
  const deleted = await deleteHandlerById(db, handlerId(id));
  if (!deleted) throw notFound(MESSAGES.handlerNotFound);
  await changed();
}

/** The changed handler, announced; 404 when there was none (nothing changed). */
async function written(changed: HandlersChanged, record: HandlerRecord | null): Promise<Handler> {
  const handler = found(record);
  await changed();
  return handler;
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
  if (query.format === 'csv') {
    return {
      contentType: 'text/csv; charset=utf-8',
      filename: `handlers-${day}.csv`,
      stream: exportCsv(db, query.delimiter ?? 'comma'),
    };
  }
  if (query.format === 'xlsx') {
    return {
      contentType: XLSX_CONTENT_TYPE,
      filename: `handlers-${day}.xlsx`,
      stream: exportXlsx(db),
    };
  }
  return { contentType: 'application/json; charset=utf-8', stream: exportJson(db, exportedAt) };
}

/** Loads the demo directory into an empty database; the number of handlers added (0: not empty). */
export async function seedDemoDirectory(
  db: DirectoryDb,
  changed: HandlersChanged,
): Promise<number> {
  if ((await countAllHandlers(db)) > 0) return 0;
  // One announcement for the whole set, after the last.
  for (const handler of DEMO_HANDLERS) await createHandler(db, async () => {}, handler);
  await changed();
  return DEMO_HANDLERS.length;
}
