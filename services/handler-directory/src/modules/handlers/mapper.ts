import type { Handler } from '@dogshop/contracts/handler-directory';
import type { HandlerRecord } from '../../db/handler-model.js';
import { FIELD_ENTRIES } from './fields.js';

// The table's names and `show`s as two arrays: lists convert thousands of records per request,
// and this loop then costs no more than the field-by-field code it replaced.
const NAMES = FIELD_ENTRIES.map(([name]) => name);
const SHOWS = FIELD_ENTRIES.map(([, field]) => field.show);

/**
 * A stored handler as the API shows it (fields.ts's `show` of each field, in the table's order,
 * which JSON exports keep); the model's internal fields (nameSort, __v) are left out. Lists and
 * exports read only repository.ts's HANDLER_VIEW_FIELDS.
 */
export function toHandler(record: HandlerRecord): Handler {
  const handler: Record<string, unknown> = {};
  const stored = record as unknown as Record<string, unknown>;
  for (let i = 0; i < NAMES.length; i += 1) {
    const name = NAMES[i]!;
    const shown = SHOWS[i]!(stored[name]);
    if (shown !== undefined) handler[name] = shown;
  }
  return handler as Handler;
}
