import {
  changeStaffPasswordOperation,
  setStaffPasswordOperation,
  staffLoginOperation,
  staffMeOperation,
} from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toStaffUser } from '../../modules/staff/mapper.js';
import {
  changeStaffPassword,
  setStaffPasswordWithToken,
  staffLogin,
} from '../../modules/staff/service.js';
import { signedInStaff } from '../../plugins/auth.js';

export interface StaffAuthRouteOptions {
  /** Login and passwords: requests per client and minute, stricter against guessing. */
  authRateLimitPerMinute: number;
}

/** Staff sign-in and passwords: login and set-password need no token, the others a staff token. */
export const staffAuthRoutes: FastifyPluginAsyncTypebox<StaffAuthRouteOptions> = async (
  app,
  opts,
) => {
  const guarded = { max: opts.authRateLimitPerMinute, timeWindow: 60_000 };
  const signIn = {
    auth: 'none',
    personal: true,
    rateLimit: guarded,
    normalize: { email: ['email'] },
  } as const;

  app.post(
    '/admin/auth/login',
    { schema: staffLoginOperation, config: signIn },
    async (request) => {
      const staff = await staffLogin(app.db, app.loginLimiter, request.ip, request.body);
      request.log.info({ staff: staff.id, role: staff.role }, 'staff logged in');
      return { success: true as const, token: app.signStaffToken(staff), user: toStaffUser(staff) };
    },
  );

  app.get(
    '/admin/auth/me',
    { schema: staffMeOperation, config: { auth: 'staff', personal: true } },
    async (request) => ({ success: true as const, data: toStaffUser(signedInStaff(request)) }),
  );

  app.put(
    '/admin/auth/password',
    {
      schema: changeStaffPasswordOperation,
      config: { auth: 'staff', personal: true, rateLimit: guarded },
    },
    async (request) => {
      const staff = await changeStaffPassword(
        app.db,
        app.loginLimiter,
        request.ip,
        signedInStaff(request),
        request.body,
      );
      return {
        success: true as const,
        message: 'Password changed',
        token: app.signStaffToken(staff),
      };
    },
  );

  app.post(
    '/admin/auth/set-password',
    {
      schema: setStaffPasswordOperation,
      config: { auth: 'none', personal: true, rateLimit: guarded },
    },
    async (request) => {
      const staff = await setStaffPasswordWithToken(
        app.db,
        request.body.token,
        request.body.password,
      );
      request.log.info({ staff: staff.id }, 'staff password set with a one-time token');
      return { success: true as const, message: 'Password set' };
    },
  );
};
