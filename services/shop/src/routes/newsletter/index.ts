import { SuccessMessageSchema } from '@dogshop/contracts/common';
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
        body: SubscribeBodySchema,
        response: { 201: SubscribeResponseSchema, ...errorResponses(400, 401, 409, 429) },
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
        body: UnsubscribeBodySchema,
        response: { 200: SuccessMessageSchema, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => {
      await unsubscribe(app.db, request.body.email);
      return { success: true as const, message: 'Unsubscribed from the newsletter' };
    },
  );
};
