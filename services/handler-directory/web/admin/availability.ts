// A handler's availability as the admin app shows it: listed publicly now, or not, and until when.
import type { Handler } from '../lib/api';
import { formatDateTime } from '../lib/format';

/**
 * Whether the public finder lists the handler now: `available` as last set, and its end not yet
 * passed (the API's own rule; an end that passed needs no write to take effect).
 */
export const listedNow = (handler: Handler, now = Date.now()): boolean =>
  handler.available &&
  (handler.availableUntil === null || Date.parse(handler.availableUntil) > now);

/** `verfügbar bis 22.03.2026, 20:00 Uhr`, `nicht verfügbar (Ende 01.03.2026, 18:00 Uhr)` … */
export function availabilityText(handler: Handler, now = Date.now()): string {
  if (listedNow(handler, now)) {
    return handler.availableUntil === null
      ? 'verfügbar'
      : `verfügbar bis ${formatDateTime(handler.availableUntil)}`;
  }
  return handler.available && handler.availableUntil !== null
    ? `nicht verfügbar (Ende ${formatDateTime(handler.availableUntil)})`
    : 'nicht verfügbar';
}

/** `2026-03-22T20:00`, the value of a `datetime-local` field, in the browser's time zone. */
export function localInputValue(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** The instant of a `datetime-local` value (read in the browser's time zone), for the API. */
export const isoOfLocalInput = (value: string): string => new Date(value).toISOString();
