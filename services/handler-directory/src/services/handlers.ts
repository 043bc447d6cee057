import { notFound } from '@dogshop/service-kit';
import { mongo } from 'mongoose';
import type {
  CreateHandlerBody,
  Gps,
  Handler,
  PublicHandler,
  UpdateHandlerBody,
} from '@dogshop/contracts/handler-directory';
import type { DirectoryDb } from '../db/connection.js';
import type { HandlerRecord } from '../db/handler-model.js';
import { distanceKm, roundKm, type Point } from '../domain/geo.js';
import { nameSortKey } from '../domain/name-sort.js';
import { MESSAGES } from '../messages.js';
import { HANDLER_VIEW_FIELDS, toHandler } from './handler-view.js';

/** Lists and exports: by name (German dictionary order), ties by id. */
export const BY_NAME = { nameSort: 1, _id: 1 } as const;
/** Documents per round trip when streaming; keeps memory flat however many handlers there are. */
export const CURSOR_BATCH_SIZE = 500;

/**
 * Reads of many handlers ask the driver for raw BSON (`raw: true`) and decode it with this: the
 * driver's own decoder with its defaults, without the lazy per-document wrapper the driver builds
 * first otherwise, which measured about 40% less CPU per handler. (The driver's typings don't
 * model `raw`: its documents are then byte arrays.)
 */
export const decodeRecords = (raw: unknown[]): HandlerRecord[] =>
  (raw as Uint8Array[]).map((bytes) => mongo.BSON.deserialize(bytes) as HandlerRecord);

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

export async function listHandlers(
  db: DirectoryDb,
  opts: { onlyAvailable: boolean },
): Promise<Handler[]> {
  const filter = opts.onlyAvailable ? { available: true } : {};
  const raw = await db.handlerRecords
    .find(filter, { sort: BY_NAME, projection: HANDLER_VIEW_FIELDS, raw: true })
    .toArray();
  return decodeRecords(raw).map(toHandler);
}

/**
 * Available handlers with a position, nearest first (ties by name), optionally within a radius.
 * Distances are computed here rather than with $geoNear: the directory is small, and the same
 * code then runs on every MongoDB, the development stand-in included.
 */
export async function listNearestHandlers(
  db: DirectoryDb,
  point: Point,
  radiusKm?: number,
): Promise<PublicHandler[]> {
  const cursor = db.handlerRecords.find(
    { available: true },
    { sort: BY_NAME, projection: HANDLER_VIEW_FIELDS, batchSize: CURSOR_BATCH_SIZE },
  );
  const near: Array<{ km: number; record: HandlerRecord }> = [];
  for await (const record of cursor) {
    if (!record.gps) continue;
    const km = distanceKm(point, record.gps);
    if (radiusKm === undefined || km <= radiusKm) near.push({ km, record });
  }
  // Stable sort: equal distances keep the name order of the cursor.
  near.sort((a, b) => a.km - b.km);
  return near.map(({ km, record }) => ({ ...toHandler(record), distance_km: roundKm(km) }));
}

export async function getHandler(db: DirectoryDb, id: string): Promise<Handler> {
  return found(await db.handlers.findById(handlerId(id)).lean<HandlerRecord>());
}

export async function createHandler(db: DirectoryDb, body: CreateHandlerBody): Promise<Handler> {
  const created = await db.handlers.create({
    name: body.name,
    phone: body.phone,
    ...(body.address ? { address: body.address } : {}),
    ...(body.type ? { type: body.type } : {}),
    available: body.available ?? true,
    ...(body.gps ? { gps: body.gps } : {}),
  });
  return toHandler(created.toObject<HandlerRecord>());
}

/** Changes only the fields given; null (and an empty address or type) removes an optional field. */
export async function updateHandler(
  db: DirectoryDb,
  id: string,
  body: UpdateHandlerBody,
): Promise<Handler> {
  const set: Record<string, unknown> = {};
  const unset: Record<string, true> = {};
  if (body.name !== undefined) {
    set.name = body.name;
    set.nameSort = nameSortKey(body.name);
  }
  if (body.phone !== undefined) set.phone = body.phone;
  if (body.available !== undefined) set.available = body.available;
  for (const field of ['address', 'type', 'gps'] as const) {
    const value = body[field];
    if (value === undefined) continue;
    if (value === null || value === '') unset[field] = true;
    else set[field] = value;
  }
  return applyUpdate(db, id, set, unset);
}

export const setAvailability = (db: DirectoryDb, id: string, available: boolean) =>
  applyUpdate(db, id, { available }, {});

export const setGps = (db: DirectoryDb, id: string, gps: Gps) =>
  applyUpdate(db, id, { gps: { lat: gps.lat, lng: gps.lng } }, {});

async function applyUpdate(
  db: DirectoryDb,
  id: string,
  set: Record<string, unknown>,
  unset: Record<string, true>,
): Promise<Handler> {
  const update = {
    ...(Object.keys(set).length > 0 ? { $set: set } : {}),
    ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}),
  };
  const updated = await db.handlers
    .findByIdAndUpdate(handlerId(id), update, { returnDocument: 'after', runValidators: true })
    .lean<HandlerRecord>();
  return found(updated);
}

export async function deleteHandler(db: DirectoryDb, id: string): Promise<void> {
  const deleted = await db.handlers.findByIdAndDelete(handlerId(id)).lean<HandlerRecord>();
  if (!deleted) throw notFound(MESSAGES.handlerNotFound);
}
