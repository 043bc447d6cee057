import type { Handler } from '@dogshop/contracts/handler-directory';
import type { HandlerRecord } from '../../db/handler-model.js';

/**
 * A stored handler as the API shows it: string id, ISO timestamps, internal fields left out
 * (lists and exports read only repository.ts's HANDLER_VIEW_FIELDS).
 */
export function toHandler(record: HandlerRecord): Handler {
  // Built field by field rather than with conditional spreads: lists convert thousands of records
  // per request, and the spreads' temporary objects cost about as much as the rest together.
  // The keys go in in the API's order (JSON exports keep it).
  const handler: Partial<Handler> = { _id: record._id.toHexString(), name: record.name };
  if (record.address) handler.address = record.address;
  handler.phone = record.phone;
  if (record.type) handler.type = record.type;
  handler.available = record.available;
  if (record.gps) handler.gps = { lat: record.gps.lat, lng: record.gps.lng };
  handler.createdAt = record.createdAt.toISOString();
  handler.updatedAt = record.updatedAt.toISOString();
  return handler as Handler;
}
