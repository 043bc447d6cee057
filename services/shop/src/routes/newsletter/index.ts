import {
  subscribeNewsletterOperation,
  unsubscribeNewsletterOperation,
} from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { subscribe, unsubscribe } from '../../modules/newsletter/service.js';

const config = { auth: 'apiKey', personal: true, normalize: { email: ['email'] } } as const;

export const newsletterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/newsletter/subscribe',
    { schema: subscribeNewsletterOperation, config },
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
    { schema: unsubscribeNewsletterOperation, config },
    async (request) => {
      await unsubscribe(app.db, request.body.email);
      return { success: true as const, message: 'Unsubscribed from the newsletter' };
    },
  );
};
