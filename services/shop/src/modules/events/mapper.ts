import type { ShopEvent } from '@dogshop/contracts/shop';
import type { EventRow } from './repository.js';

/** A stored event as the feed lists it: its id and sequence, and the envelope webhooks deliver. */
export const eventToDto = (row: EventRow): ShopEvent =>
  ({ id: row.id, sequence: Number(row.sequence), ...row.envelope }) as ShopEvent;
