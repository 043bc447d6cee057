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
import { distanceKm, roundKm, type Point } from './geo.js';
import { toHandler } from './mapper.js';
import { nameSortKey } from './name-sort.js';
import {
  availableHandlers,
  countAllHandlers,
  deleteHandlerById,
  findHandlerById,
  findHandlers,
  insertHandler,
  updateHandlerById,
} from './repository.js';

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

/**
 * The public list: the available handlers by name, or with `lat` and `lng` (both or neither)
 * those with a position nearest first, optionally within `radius_km` (only with a point).
 */
export async function listPublicHandlers(
  db: DirectoryDb,
  query: PublicHandlerListQuery,
): Promise<PublicHandler[]> {
  const { lat, lng, radius_km: radiusKm } = query;
  if ((lat === undefined) !== (lng === undefined)) throw badRequest(MESSAGES.nearestNeedsBoth);
  if (lat === undefined || lng === undefined) {
    if (radiusKm !== undefined) throw badRequest(MESSAGES.radiusNeedsPoint);
    return (await findHandlers(db, { onlyAvailable: true })).map(toHandler);
  }
  return listNearestHandlers(db, { lat, lng }, radiusKm);
}

/**
 * Available handlers with a position, nearest first (ties by name), optionally within a radius.
 * Distances are computed here rather than with $geoNear: the directory is small, and the same
 * code then runs on every MongoDB, the development stand-in included.
 */
async function listNearestHandlers(
  db: DirectoryDb,
  point: Point,
  radiusKm?: number,
): Promise<PublicHandler[]> {
  const near: Array<{ km: number; record: HandlerRecord }> = [];
  for await (const record of availableHandlers(db)) {
    if (!record.gps) continue;
    const km = distanceKm(point, record.gps);
    if (radiusKm === undefined || km <= radiusKm) near.push({ km, record });
  }
  // Stable sort: equal distances keep the name order of the cursor.
  near.sort((a, b) => a.km - b.km);
  return near.map(({ km, record }) => ({ ...toHandler(record), distance_km: roundKm(km) }));
}

export async function getHandler(db: DirectoryDb, id: string): Promise<Handler> {
  return found(await findHandlerById(db, handlerId(id)));
}

export async function createHandler(db: DirectoryDb, body: CreateHandlerBody): Promise<Handler> {
  const created = await insertHandler(db, {
    name: body.name,
    phone: body.phone,
    ...(body.address ? { address: body.address } : {}),
    ...(body.type ? { type: body.type } : {}),
    available: body.available ?? true,
    ...(body.gps ? { gps: body.gps } : {}),
  });
  return toHandler(created);
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
  return found(await updateHandlerById(db, handlerId(id), set, unset));
}

export async function setAvailability(
  db: DirectoryDb,
  id: string,
  available: boolean,
): Promise<Handler> {
  return found(await updateHandlerById(db, handlerId(id), { available }, {}));
}

export async function setGps(db: DirectoryDb, id: string, gps: Gps): Promise<Handler> {
  return found(
    await updateHandlerById(db, handlerId(id), { gps: { lat: gps.lat, lng: gps.lng } }, {}),
  );
}

export async function deleteHandler(db: DirectoryDb, id: string): Promise<void> {
  const deleted = await deleteHandlerById(db, handlerId(id));
  if (!deleted) throw notFound(MESSAGES.handlerNotFound);
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
export async function seedDemoDirectory(db: DirectoryDb): Promise<number> {
  if ((await countAllHandlers(db)) > 0) return 0;
  for (const handler of DEMO_HANDLERS) await createHandler(db, handler);
  return DEMO_HANDLERS.length;
}
