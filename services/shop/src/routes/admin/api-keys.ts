import {
  createApiKeyOperation,
  listApiKeysOperation,
  revokeApiKeyOperation,
} from '@dogshop/contracts/shop';
import { notFound } from '@dogshop/service-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createApiKeyAudited,
  listApiKeys,
  revokeApiKeyAudited,
  toApiKeyView,
} from '../../modules/api-keys/service.js';
import { actorOf } from '../../plugins/auth.js';

export interface ApiKeyRouteOptions {
  /** Tells every replica that a key was revoked (its key cache forgets it at once). */
  announceRevocation: () => Promise<unknown>;
}

/** API keys: admins (or a secret key with `keys:manage`) only. */
export const apiKeyRoutes: FastifyPluginAsyncTypebox<ApiKeyRouteOptions> = async (app, opts) => {
  const config = { auth: 'scoped', scope: 'keys:manage', personal: true } as const;

  app.get('/admin/api-keys', { schema: listApiKeysOperation, config }, async () => ({
    success: true as const,
    data: (await listApiKeys(app.db)).map(toApiKeyView),
  }));

  app.post('/admin/api-keys', { schema: createApiKeyOperation, config }, async (request, reply) => {
    const { key, info } = await createApiKeyAudited(app.db, actorOf(request), request.body);
    reply.code(201);
    return { success: true as const, data: toApiKeyView(info), key };
  });

  app.delete('/admin/api-keys/:id', { schema: revokeApiKeyOperation, config }, async (request) => {
    const { id } = request.params;
    if (!(await revokeApiKeyAudited(app.db, actorOf(request), id, opts.announceRevocation))) {
      throw notFound(`API key ${id} not found`);
    }
    return { success: true as const, message: `API key ${id} revoked` };
  });
};
