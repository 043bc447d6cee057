// How the history shows a change: the write's kind and each field's name in German, and every
// value as text (dates and positions in German formats, never as raw JSON).
import type { Schemas } from '../lib/api';
import { formatDateTime, formatPoint } from '../lib/format';

type HandlerChange = Schemas['HandlerChange'];
export type FieldValue = Schemas['FieldChange']['before'];

/** The write that made an entry, as the history names it. */
export const ACTION_NAMES: Record<HandlerChange['action'], string> = {
  create: 'angelegt',
  update: 'geändert',
  availability: 'Verfügbarkeit gesetzt',
  gps: 'Position gesetzt',
  import: 'importiert',
  delete: 'gelöscht',
};

/** German labels of the Handler's fields; a field not listed here shows its API name. */
const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  address: 'Adresse',
  phone: 'Telefon',
  type: 'Typ',
  available: 'verfügbar',
  availableUntil: 'verfügbar bis',
  availabilityConfirmedAt: 'Verfügbarkeit bestätigt',
  gps: 'Position',
  createdAt: 'angelegt',
  updatedAt: 'geändert',
};

/** Fields whose strings are ISO timestamps. */
const TIME_FIELDS = new Set([
  'availableUntil',
  'availabilityConfirmedAt',
  'createdAt',
  'updatedAt',
]);

const numbers = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 6 });

export const fieldLabel = (field: string): string => FIELD_LABELS[field] ?? field;

/** A value as text; `undefined` for none (null), which the page shows as "leer". */
export function valueText(field: string, value: FieldValue): string | undefined {
  if (value === null) return undefined;
  if (typeof value === 'boolean') return value ? 'ja' : 'nein';
  if (typeof value === 'number') return numbers.format(value);
  if (typeof value === 'object') return formatPoint(value);
  if (TIME_FIELDS.has(field) && !Number.isNaN(Date.parse(value))) return formatDateTime(value);
  return value;
}
