import {
  createWebhookOperation,
  deleteWebhookOperation,
  getWebhookOperation,
  listDeliveriesOperation,
  listWebhooksOperation,
  pingWebhookOperation,
  retryDeliveryOperation,
  rotateWebhookSecretOperation,
  updateWebhookOperation,
} from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { WebhookConfig } from '../../config.js';
import {
  changeWebhook,
  createWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  pingWebhook,
  removeWebhook,
  retryDelivery,
  rotateSecret,
} from '../../modules/webhooks/service.js';

/** Subscriptions and their delivery log, with the API key. Secrets and payloads are personal. */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhookConfig }> = async (
  app,
  { webhooks: config },
) => {
  const auth = { auth: 'scoped', scope: 'webhooks:manage', personal: true } as const;

  app.post('/webhooks', { schema: createWebhookOperation, config: auth }, async (request, reply) =>
    reply
      .code(201)
      .send({ success: true as const, data: await createWebhook(app.db, config, request.body) }),
  );

  app.get('/webhooks', { schema: listWebhooksOperation, config: auth }, async () => ({
    success: true as const,
    data: await listWebhooks(app.db),
  }));

  app.get('/webhooks/:id', { schema: getWebhookOperation, config: auth }, async (request) => ({
    success: true as const,
    data: await getWebhook(app.db, request.params.id),
  }));

  app.patch('/webhooks/:id', { schema: updateWebhookOperation, config: auth }, async (request) => ({
    success: true as const,
    data: await changeWebhook(app.db, config, request.params.id, request.body),
  }));

  app.delete(
    '/webhooks/:id',
    { schema: deleteWebhookOperation, config: auth },
    async (request) => ({
      success: true as const,
      message: await removeWebhook(app.db, request.params.id),
    }),
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    { schema: rotateWebhookSecretOperation, config: auth },
    async (request) => ({
      success: true as const,
      data: await rotateSecret(app.db, config, request.params.id),
    }),
  );

  app.post(
    '/webhooks/:id/ping',
    { schema: pingWebhookOperation, config: auth },
    async (request, reply) =>
      reply
        .code(202)
        .send({ success: true as const, data: await pingWebhook(app.db, request.params.id) }),
  );

  app.get(
    '/webhooks/:id/deliveries',
    { schema: listDeliveriesOperation, config: auth },
    async (request) => ({
      success: true as const,
      data: await listDeliveries(app.db, request.params.id, request.query),
    }),
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/retry',
    { schema: retryDeliveryOperation, config: auth },
    async (request, reply) =>
      reply.code(202).send({
        success: true as const,
        data: await retryDelivery(app.db, request.params.id, request.params.deliveryId),
      }),
  );
};
