// How the admin app writes amounts, dates and statuses (English). Amounts as the API gives them,
// with two decimals and no currency sign: the contract names no currency.
import type { OrderStatus } from './api';

const money = new Intl.NumberFormat('en-GB', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });
const count = new Intl.NumberFormat('en-GB');

export const formatMoney = (amount: number) => money.format(amount);
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
export const formatDay = (iso: string) => day.format(new Date(iso));
export const formatCount = (n: number) => count.format(n);

export const STATUS_NAMES: Record<OrderStatus, string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

/** Every status, in the order an order goes through them. */
export const STATUSES: readonly OrderStatus[] = [
  'pending',
  'confirmed',
  'shipped',
  'delivered',
  'cancelled',
];

// A calendar date (`YYYY-MM-DD`: a day of the shop's time zone, as the sales figures give it) is
// no instant: written as it is, whatever the browser's zone (read as local midnight, 2026-03-01
// would be 28 Feb west of Greenwich).
const calendarDay = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });
const calendarDayShort = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});
const utcMidnight = (date: string) => new Date(`${date}T00:00:00Z`);

/** `2026-03-01` → `1 Mar 2026` */
export const formatDate = (date: string) => calendarDay.format(utcMidnight(date));
/** `2026-03-01` → `1 Mar` (a chart's axis) */
export const formatDateShort = (date: string) => calendarDayShort.format(utcMidnight(date));
