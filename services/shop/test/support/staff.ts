import { randomBytes } from 'node:crypto';
import { expect } from '@jest/globals';
import type { ApiKeyScope, StaffRole } from '../../src/modules/access/policy.js';
import { createApiKey } from '../../src/modules/api-keys/service.js';
import { createStaff } from '../../src/modules/staff/service.js';
import type { TestApp } from './app.js';

export const STAFF_PASSWORD = 'a long staff passphrase';

export interface SignedInStaffMember {
  id: number;
  email: string;
  name: string;
  token: string;
}

/**
 * A staff account of `role` made by the service (with a password), signed in through the real
 * login endpoint.
 */
export async function staffMember(
  t: TestApp,
  role: StaffRole,
  name = `Staff ${randomBytes(3).toString('hex')}`,
): Promise<SignedInStaffMember> {
  const email = `${role}-${randomBytes(6).toString('hex')}@shop.example`;
  const { account } = await createStaff(t.app.db, null, {
    email,
    name,
    role,
    password: STAFF_PASSWORD,
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/admin/auth/login',
    payload: { email, password: STAFF_PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  return { id: account.id, email, name, token: res.json<{ token: string }>().token };
}

/** A new secret key with just these scopes, or a publishable key. */
export async function keyWith(
  t: TestApp,
  grant: { kind: 'publishable' } | { kind: 'secret'; scopes: ApiKeyScope[] },
): Promise<string> {
  return (await createApiKey(t.app.db, `test ${grant.kind} key`, grant)).key;
}
