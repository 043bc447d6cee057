import type { Handler } from '@dogshop/contracts/handler-directory';
import type { HandlerRecord } from '../db/handler-model.js';

/** A stored handler as the API shows it: string id, ISO timestamps, internal fields left out. */
export function toHandler(record: HandlerRecord): Handler {
  return {
    _id: record._id.toHexString(),
    name: record.name,
    ...(record.address ? { address: record.address } : {}),
    phone: record.phone,
    ...(record.type ? { type: record.type } : {}),
    available: record.available,
    ...(record.gps ? { gps: { lat: record.gps.lat, lng: record.gps.lng } } : {}),
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}
