import type { ServicePlugin } from '@dogshop/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ShopConfig } from '../config.js';
import { onEventsCommitted } from '../modules/events/service.js';
import {
  countDisabledWebhooks,
  oldestUndeliveredAgeSeconds,
} from '../modules/webhooks/repository.js';

/**
 * The webhook delivery worker of this replica: starts when the app is ready, stops before it
 * closes (its attempts in flight end first, while the database is still open).
 */
export const webhookDelivery: ServicePlugin<ShopConfig> = fp(
  async (app: FastifyInstance, { config }: { config: ShopConfig }) => {
    if (!config.webhooks.deliver) return;
    // Loaded only by a replica that delivers: its HTTP client (undici) takes a third of a
    // second to load, and test apps and replicas without the worker never send.
    const { DeliveryWorker } = await import('../modules/webhooks/delivery.js');
    const attempts = app.metrics.counter(
      'webhook_delivery_attempts_total',
      'Webhook delivery attempts by outcome (delivered: a 2xx; failed: anything else).',
      ['outcome'],
    );
    const disabled = app.metrics.counter(
      'webhook_subscriptions_disabled_total',
      'Webhook subscriptions disabled after failing for too long.',
    );
    // Read from the database on each scrape: the same on every replica (aggregate with max).
    app.metrics.gauge(
      'webhook_oldest_undelivered_event_age_seconds',
      'Seconds since the oldest event not yet delivered was committed or queued (a pending delivery to an enabled subscription); 0 when none.',
      async (gauge) => gauge.set(await oldestUndeliveredAgeSeconds(app.db)),
    );
    app.metrics.gauge(
      'webhook_subscriptions_disabled',
      'Webhook subscriptions now disabled: by the shop (failing too long) or by their owner.',
      async (gauge) => {
        const count = await countDisabledWebhooks(app.db);
        gauge.set({ by: 'shop' }, count.shop);
        gauge.set({ by: 'owner' }, count.owner);
      },
      ['by'],
    );
    // The turn's statement goes through `pg` on the app's pool, as the catalogue's hot reads do
    // (`app.reads` runs one statement, named as Prisma names it, outside a transaction): through
    // Prisma it cost the worker about as much CPU as the HTTP exchange it records.
    const worker = new DeliveryWorker(app.db, app.reads, config.webhooks, app.log, {
      attempted: (outcome) => attempts.inc({ outcome }),
      disabled: () => disabled.inc(),
    });
    // Events committed here (writeEvents, or the order's statement: events/service.ts): this
    // replica's worker numbers and sends them at once instead of at its next poll. Declared
    // where the events are written, so no route says it and no other request runs anything.
    // (Not a NOTIFY from the transaction: PostgreSQL holds a database-wide lock from a notifying
    // transaction's commit until it ends, so orders would commit one at a time: 11-25 % fewer
    // orders a second at 16 connections, measured.) Events committed on other replicas are found
    // by the poll.
    onEventsCommitted(app.db, () => worker.eventsCommitted());
    app.addHook('onReady', async () => worker.start());
    app.addHook('preClose', async () => worker.stop());
  },
  { name: 'webhook-delivery', dependencies: ['database'] },
);
