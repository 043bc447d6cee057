// The events a webhook can be sent, in words (the webhook forms and lists).
import type { Schemas } from '../lib/api';

export type WebhookEvent = Schemas['CreateWebhookBody']['events'][number];

/** Every event, also those the shop adds later. */
export const ALL_EVENTS = '*';

export const EVENT_NAMES: Record<Exclude<WebhookEvent, typeof ALL_EVENTS>, string> = {
  'order.created': 'An order is placed',
  'order.status_changed': 'An order’s status changes',
  'review.created': 'A review is written',
  'product.created': 'A product is created',
  'product.updated': 'A product is changed',
  'product.out_of_stock': 'A product runs out of stock',
  'product.back_in_stock': 'A product is back in stock',
};

export const EVENTS = Object.keys(EVENT_NAMES) as Exclude<WebhookEvent, typeof ALL_EVENTS>[];

/** A subscription's events as a list says them. */
export const eventsText = (events: readonly string[]) =>
  events.includes(ALL_EVENTS) ? 'Every event' : events.join(', ');
