// German formats of what the pages show, and the reading of what a person types.

const kilometres = new Intl.NumberFormat('de-DE', {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
const degrees = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 5 });
const dateTime = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short' });

/** `12,3 km` */
export const formatDistance = (distanceKm: number): string => `${kilometres.format(distanceKm)} km`;

/** `52,52° N, 13,405° O` */
export function formatPoint({ lat, lng }: { lat: number; lng: number }): string {
  const ns = lat < 0 ? 'S' : 'N';
  const ew = lng < 0 ? 'W' : 'O';
  return `${degrees.format(Math.abs(lat))}° ${ns}, ${degrees.format(Math.abs(lng))}° ${ew}`;
}

/** `22.03.2026, 20:00 Uhr`, in the browser's time zone. */
export const formatDateTime = (iso: string): string => `${dateTime.format(new Date(iso))} Uhr`;

/**
 * A coordinate as typed: `52,52` or `52.52`, a sign allowed; undefined when it is no number.
 * Its range is the API's to check (its German message is shown as it comes).
 */
export function parseCoordinate(text: string): number | undefined {
  const trimmed = text.trim().replace(/\s+/g, '');
  if (!/^[+-]?\d{1,3}(?:[.,]\d+)?$/.test(trimmed)) return undefined;
  return Number(trimmed.replace(',', '.').replace(/^\+/, ''));
}

/**
 * A coordinate as the API takes it: five decimals (about a metre, more than a search needs and
 * no more of a position than that), written without an exponent (`String` writes none above
 * 1e-7) and never `-0`.
 */
export const forQuery = (value: number): number => Math.round(value * 1e5) / 1e5 || 0;

/**
 * The `tel:` or `sms:` address of a phone number as stored (free text such as `+49 5191 98 76-54`):
 * its digits with a leading `+`; undefined when it has no digit.
 */
export function phoneUri(scheme: 'tel' | 'sms', phone: string): string | undefined {
  const digits = phone.replace(/[^\d+]/g, '').replace(/(?!^)\+/g, '');
  return /\d/.test(digits) ? `${scheme}:${digits}` : undefined;
}
