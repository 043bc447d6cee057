import {
  createStaffOperation,
  listStaffOperation,
  resetStaffPasswordOperation,
  updateStaffOperation,
} from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toStaffAccount } from '../../modules/staff/mapper.js';
import {
  changeStaff,
  createStaff,
  listStaff,
  resetStaffPassword,
} from '../../modules/staff/service.js';
import { actorOf } from '../../plugins/auth.js';

/** Staff accounts: admins (or a secret key with `staff:manage`) only. */
export const staffRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const config = {
    auth: 'scoped',
    scope: 'staff:manage',
    personal: true,
    normalize: { email: ['email'] },
  } as const;

  app.get('/admin/staff', { schema: listStaffOperation, config }, async () => ({
    success: true as const,
    data: (await listStaff(app.db)).map(toStaffAccount),
  }));

  app.post('/admin/staff', { schema: createStaffOperation, config }, async (request, reply) => {
    const { account, setPassword } = await createStaff(app.db, actorOf(request), request.body);
    reply.code(201);
    return {
      success: true as const,
      data: toStaffAccount(account),
      set_password_token: setPassword!.token,
      set_password_expires_at: setPassword!.expiresAt.toISOString(),
    };
  });

  app.patch('/admin/staff/:id', { schema: updateStaffOperation, config }, async (request) => ({
    success: true as const,
    data: toStaffAccount(
      await changeStaff(app.db, actorOf(request), request.params.id, request.body),
    ),
  }));

  app.post(
    '/admin/staff/:id/password-reset',
    { schema: resetStaffPasswordOperation, config },
    async (request) => {
      const token = await resetStaffPassword(app.db, actorOf(request), request.params.id);
      return {
        success: true as const,
        set_password_token: token.token,
        set_password_expires_at: token.expiresAt.toISOString(),
      };
    },
  );
};
