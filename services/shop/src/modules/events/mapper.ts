import type { ShopEvent } from '@dogshop/contracts/shop';
import type { EventRow } from './repository.js';

/** A stored event as the feed lists it (and webhooks deliver its type, timestamp and data). */
export const eventToDto = (row: EventRow): ShopEvent =>
  ({
    id: row.id,
    sequence: Number(row.sequence),
    type: row.type,
    timestamp: row.occurredAt.toISOString(),
    data: row.data,
  }) as ShopEvent;
