import { randomBytes } from 'node:crypto';
import { expect } from '@jest/globals';
import type { TestApp } from './app.js';

export interface RegisteredCustomer {
  id: number;
  email: string;
  password: string;
  token: string;
}

export interface RegisterOverrides {
  email?: string;
  password?: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  newsletter?: boolean;
}

/** Registers a customer through the real endpoint (a unique e-mail unless given) and logs it in. */
export async function registerCustomer(
  t: TestApp,
  overrides: RegisterOverrides = {},
): Promise<RegisteredCustomer> {
  const body = {
    email: `customer-${randomBytes(6).toString('hex')}@example.com`,
    password: 'correct horse battery',
    first_name: 'Ann',
    last_name: 'Hunter',
    ...overrides,
  };
  const res = await t.request({ method: 'POST', url: '/customers/register', payload: body });
  expect(res.statusCode).toBe(201);
  const data = res.json().data as { customer_id: number; email: string; token: string };
  return { id: data.customer_id, email: data.email, password: body.password, token: data.token };
}

/** Headers for a bearer operation. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
