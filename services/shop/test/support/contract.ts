import { expect } from '@jest/globals';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';

/** Asserts that a response body satisfies its contract schema, showing the first mismatch. */
export function expectContract(schema: TSchema, body: unknown): void {
  const errors = Value.Errors(schema, body).map((e) => `${e.instancePath || '/'} ${e.message}`);
  expect(errors).toEqual([]);
}

/** Asserts the shop's error envelope with the given status. */
export function expectShopError(
  response: { statusCode: number; json: () => unknown },
  status: number,
  message?: RegExp,
): void {
  const body = response.json() as { success: unknown; error: unknown; status_code: unknown };
  expect({
    status: response.statusCode,
    success: body.success,
    status_code: body.status_code,
  }).toEqual({
    status,
    success: false,
    status_code: status,
  });
  expect(typeof body.error).toBe('string');
  if (message) expect(body.error).toMatch(message);
}
