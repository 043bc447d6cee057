import { Type, type Static } from 'typebox';
import { DataEnvelope, SuccessMessageSchema, documented } from '../common.js';
import { shopErrors } from './errors.js';
import { Email, Id } from './shared.js';
import { shopTag } from './tags.js';

export const SubscribeBodySchema = Type.Object(
  {
    email: Email(),
    first_name: Type.Optional(Type.String({ maxLength: 100 })),
    last_name: Type.Optional(Type.String({ maxLength: 100 })),
    preferences: Type.Optional(
      Type.Object(
        {
          categories: Type.Optional(
            Type.Array(Id(), { maxItems: 100, description: 'Existing category ids' }),
          ),
          frequency: Type.Optional(
            Type.Union([Type.Literal('weekly'), Type.Literal('monthly')], { default: 'weekly' }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'SubscribeBody', title: 'SubscribeBody', additionalProperties: false },
);
export type SubscribeBody = Static<typeof SubscribeBodySchema>;

export const SubscribeResponseSchema = DataEnvelope(
  Type.Object({ subscriber_id: Id() }, { additionalProperties: false }),
  true,
  { $id: 'SubscribeResponse' },
);

export const UnsubscribeBodySchema = Type.Object(
  { email: Email() },
  { $id: 'UnsubscribeBody', title: 'UnsubscribeBody', additionalProperties: false },
);
export type UnsubscribeBody = Static<typeof UnsubscribeBodySchema>;

export const subscribeNewsletterOperation = {
  tags: shopTag('Newsletter'),
  operationId: 'subscribeNewsletter',
  summary: 'Subscribe an e-mail address',
  description:
    'An active address is 409; a previously unsubscribed one is re-activated with the same `subscriber_id` and the new preferences. `preferences.categories` must name active categories (duplicates are merged); `frequency` defaults to weekly. A customer account with this address gets `newsletter: true`.',
  body: documented(SubscribeBodySchema, {
    examples: [
      {
        email: 'jana.johannsen@example.com',
        first_name: 'Jana',
        last_name: 'Johannsen',
        preferences: { categories: [2, 3], frequency: 'monthly' },
      },
    ],
  }),
  response: {
    201: documented(SubscribeResponseSchema, {
      description: 'The address is subscribed (new, or re-activated)',
      examples: [
        { success: true, data: { subscriber_id: 58 }, message: 'Subscribed to the newsletter' },
      ],
    }),
    ...shopErrors(
      [400, 'body.preferences.categories: unknown category ids 99'],
      401,
      [
        409,
        'email jana.johannsen@example.com is already subscribed',
        'The address is already actively subscribed',
      ],
      429,
    ),
  },
};

export const unsubscribeNewsletterOperation = {
  tags: shopTag('Newsletter'),
  operationId: 'unsubscribeNewsletter',
  summary: 'Unsubscribe an e-mail address',
  description:
    'The record is kept with the time of unsubscribing. An address that is not actively subscribed is 404. A customer account with this address gets `newsletter: false`.',
  body: documented(UnsubscribeBodySchema, {
    examples: [{ email: 'jana.johannsen@example.com' }],
  }),
  response: {
    200: documented(SuccessMessageSchema, {
      description: 'The address is unsubscribed',
      examples: [{ success: true, message: 'Unsubscribed from the newsletter' }],
    }),
    ...shopErrors(
      [400, 'body.email must match format "email"'],
      401,
      [
        404,
        'email jana.johannsen@example.com is not subscribed',
        'The address is not actively subscribed',
      ],
      429,
    ),
  },
};
