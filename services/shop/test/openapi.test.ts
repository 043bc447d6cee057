import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EVENT_TYPES, type EventType, type ProductDetail } from '@dogshop/contracts/shop';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { productCreatedEvent, productUpdatedEvent } from '../src/modules/events/builders.js';
import { insertEvents } from '../src/modules/events/repository.js';
import { writeEvents } from '../src/modules/events/service.js';
import { createTestApp, testConfig, type TestApp } from './support/app.js';
import { bearer, registerCustomer } from './support/customers.js';
import { addProduct, orderBody } from './support/orders.js';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/**
 * Every operation of the shop's API contract (the spec this service implements), with the
 * security it documents: any key, a customer's token, or (since the back office) a secret key's
 * scope or a staff role granting it.
 */
const ANY_KEY = [{ ApiKeyAuth: [] }];
const CUSTOMER = [{ BearerAuth: [] }];
/** Any key, alone or with a customer's token beside it (acting for that customer). */
const KEY_MAYBE_CUSTOMER = [{ ApiKeyAuth: [] }, { ApiKeyAuth: [], BearerAuth: [] }];
const SPEC_OPERATIONS: Array<[string, string, Array<Record<string, string[]>>]> = [
  ['get', '/products', ANY_KEY],
  ['get', '/products/{id}', ANY_KEY],
  ['get', '/categories', ANY_KEY],
  ['post', '/orders', KEY_MAYBE_CUSTOMER],
  ['get', '/orders/{id}', KEY_MAYBE_CUSTOMER],
  ['put', '/orders/{id}', [{ ApiKeyAuth: ['orders:write'] }, { StaffAuth: ['admin', 'staff'] }]],
  ['post', '/customers/register', ANY_KEY],
  ['post', '/customers/login', ANY_KEY],
  ['get', '/customers/{id}/profile', CUSTOMER],
  ['put', '/customers/{id}/profile', CUSTOMER],
  ['get', '/products/{id}/reviews', ANY_KEY],
  ['post', '/products/{id}/reviews', CUSTOMER],
  ['post', '/newsletter/subscribe', ANY_KEY],
  ['post', '/newsletter/unsubscribe', ANY_KEY],
  ['get', '/stats', [{ ApiKeyAuth: ['stats:read'] }, { StaffAuth: ['admin', 'staff', 'viewer'] }]],
];

describe('OpenAPI document', () => {
  it.each(SPEC_OPERATIONS)(
    'documents %s %s with its security and error responses',
    async (method, path, expected) => {
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const operation = doc.paths[path]?.[method];
      expect(operation).toBeDefined();
      expect(operation.operationId).toEqual(expect.any(String));
      expect(operation.tags).toHaveLength(1);
      const security = operation.security ?? doc.security;
      expect(security).toEqual(expected);
      const statuses = Object.keys(operation.responses);
      expect(statuses.some((s) => s.startsWith('2'))).toBe(true);
      expect(statuses).toEqual(expect.arrayContaining(['401']));
    },
  );
});

/**
 * Every event type the shop sends: the events its changes write (EVENT_TYPES types them) and the
 * ping, each with the named schema of its `data`.
 */
const SENT_EVENTS: Record<EventType | 'webhook.ping', string> = {
  'order.created': 'OrderDetail',
  'order.status_changed': 'OrderStatusChange',
  'review.created': 'Review',
  'product.out_of_stock': 'ProductStockChange',
  'product.back_in_stock': 'ProductStockChange',
  'product.created': 'ProductCreated',
  'product.updated': 'ProductUpdated',
  'webhook.ping': 'WebhookPing',
};

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A schema with the document's `$ref`s resolved in place, `title` left out. */
function resolved(doc: Json, node: unknown): unknown {
  if (Array.isArray(node)) return node.map((item) => resolved(doc, item));
  if (node === null || typeof node !== 'object') return node;
  const { $ref, title: _title, ...rest } = node as Json;
  if (typeof $ref === 'string')
    return resolved(doc, doc.components.schemas[$ref.replace('#/components/schemas/', '')]);
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, resolved(doc, v)]));
}

describe('OpenAPI webhooks', () => {
  let doc: Json;
  beforeAll(async () => {
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });

  it('lists every event type the shop sends, with its payload schema', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES, 'webhook.ping'].sort());
    for (const [type, data] of Object.entries(SENT_EVENTS)) {
      const operation = doc.webhooks[type].post;
      expect(operation).toMatchObject({ operationId: expect.any(String), tags: ['Webhooks'] });
      // The receiver needs no key of the shop's: the delivery is signed.
      expect(operation.security).toEqual([]);
      const body = operation.requestBody.content['application/json'];
      expect({ type, schema: body.schema }).toEqual({
        type,
        schema: {
          type: 'object',
          required: ['type', 'timestamp', 'data'],
          properties: {
            type: { type: 'string', const: type },
            timestamp: expect.objectContaining({ type: 'string', format: 'date-time' }),
            data: { $ref: `#/components/schemas/${data}` },
          },
          additionalProperties: false,
        },
      });
      expect(body.example).toMatchObject({ type, data: expect.any(Object) });
      expect(operation.parameters.map((p: Json) => [p.name, p.in, p.required])).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      expect(Object.keys(operation.responses)).toEqual(['2XX', 'default']);
      expect(operation.responses['2XX'].description).toMatch(/within 10 s/);
      expect(operation.responses.default.description).toMatch(/retried/);
    }
  });

  it('describes the same data the feed lists for each event', () => {
    const feedEvents = doc.components.schemas.ShopEvent.anyOf.map((ref: Json) =>
      resolved(doc, ref),
    ) as Json[];
    expect(feedEvents).toHaveLength(EVENT_TYPES.length);
    for (const event of feedEvents) {
      const type = event.properties.type.enum[0] as EventType;
      const body = doc.webhooks[type].post.requestBody.content['application/json'].schema;
      expect({ type, data: resolved(doc, body.properties.data) }).toEqual({
        type,
        data: resolved(doc, event.properties.data),
      });
    }
  });

  it('matches what is queued for delivery, for every event type', async () => {
    // No worker (testConfig's): the deliveries stay queued, with the bodies they would be sent.
    const s = await createTestApp({
      webhooks: { ...testConfig().webhooks, allowHttp: true, allowPrivateTargets: true },
    });
    try {
      const hook = await s.request({
        method: 'POST',
        url: '/webhooks',
        payload: { url: 'http://127.0.0.1:9/hook', events: ['*'] },
      });
      expect(hook.statusCode).toBe(201);
      const hookId = hook.json().data.id as number;
      // The last one in stock: the order empties it, the cancellation restocks it.
      const product = await addProduct(s.app, 'Documented lead', '4.00', 1);
      const order = await s.request({
        method: 'POST',
        url: '/orders',
        payload: orderBody([{ product_id: product, quantity: 1, price: 4 }]),
      });
      expect(order.statusCode).toBe(201);
      const cancelled = await s.request({
        method: 'PUT',
        url: `/orders/${order.json().data.order_id}`,
        payload: { status: 'cancelled' },
      });
      expect(cancelled.statusCode).toBe(200);
      const customer = await registerCustomer(s);
      const review = await s.request({
        method: 'POST',
        url: `/products/${product}/reviews`,
        payload: { rating: 4, title: 'Fine', comment: 'Does what a lead should do.' },
        headers: bearer(customer.token),
      });
      expect(review.statusCode).toBe(201);
      // The catalogue's events, through their builders (the back office's product routes call them).
      const { reviews: _reviews, ...shown } = (
        await s.request({ url: `/products/${product}` })
      ).json().data as ProductDetail;
      const staff = { type: 'staff', id: 1, name: 'Mia Berger' } as const;
      await writeEvents(s.app.db, (tx) =>
        insertEvents(tx, [
          productCreatedEvent(shown, staff),
          productUpdatedEvent({ ...shown, price: 4.5 }, ['price'], null),
        ]),
      );
      expect(
        (await s.request({ method: 'POST', url: `/webhooks/${hookId}/ping` })).statusCode,
      ).toBe(202);
      // Reading the feed numbers the events, which queues their deliveries.
      expect((await s.request({ url: '/events' })).statusCode).toBe(200);

      const queued = await s.app.db.webhookDelivery.findMany({
        where: { webhookId: hookId },
        select: { eventType: true, payload: true },
      });
      expect(new Set(queued.map((d) => d.eventType))).toEqual(new Set(Object.keys(SENT_EVENTS)));
      const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
      for (const { eventType, payload } of queued) {
        const schema = doc.webhooks[eventType].post.requestBody.content['application/json'].schema;
        const validate = ajv.compile({ ...schema, components: doc.components });
        expect({ eventType, errors: validate(payload) ? [] : validate.errors }).toEqual({
          eventType,
          errors: [],
        });
        // And it refuses what the shop does not send.
        expect(validate({ ...(payload as Json), data: {} })).toBe(false);
      }
    } finally {
      await s.close();
    }
  });
});
