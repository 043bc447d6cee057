import { SuccessMessageSchema, documented } from '@dogshop/contracts/common';
import {
  SubscribeBodySchema,
  SubscribeResponseSchema,
  UnsubscribeBodySchema,
} from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { subscribe, unsubscribe } from '../../services/newsletter.js';
import { errorResponses } from '../responses.js';

export const newsletterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/newsletter/subscribe',
    {
      schema: {
        tags: ['Newsletter'],
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
              {
                success: true,
                data: { subscriber_id: 58 },
                message: 'Subscribed to the newsletter',
              },
            ],
          }),
          ...errorResponses(
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
      },
    },
    async (request, reply) => {
      const { subscriberId } = await subscribe(app.db, request.body);
      return reply.code(201).send({
        success: true as const,
        data: { subscriber_id: subscriberId },
        message: 'Subscribed to the newsletter',
      });
    },
  );

  app.post(
    '/newsletter/unsubscribe',
    {
      schema: {
        tags: ['Newsletter'],
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
          ...errorResponses(
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
      },
    },
    async (request) => {
      await unsubscribe(app.db, request.body.email);
      return { success: true as const, message: 'Unsubscribed from the newsletter' };
    },
  );
};
