import { randomBytes } from 'node:crypto';
import { expect } from '@jest/globals';
import type { CreateHandlerBody, Handler } from '@dogshop/contracts/handler-directory';
import type { TestApp } from './app.js';

/** Creates a handler through the API as the test admin (a unique name unless given). */
export async function createHandler(
  t: TestApp,
  overrides: Partial<CreateHandlerBody> = {},
): Promise<Handler> {
  const body = {
    name: `Hundeführer ${randomBytes(4).toString('hex')}`,
    phone: '+49 30 123456',
    ...overrides,
  };
  const res = await t.request({ method: 'POST', url: '/api/users', payload: body, as: t.admin });
  expect(res.statusCode).toBe(201);
  return res.json<{ data: Handler }>().data;
}

export const names = (body: { data: Array<{ name: string }> }) => body.data.map((h) => h.name);
