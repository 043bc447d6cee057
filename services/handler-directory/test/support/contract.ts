import { expect } from '@jest/globals';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';

/** Asserts that a response body satisfies its contract schema, showing every mismatch. */
export function expectContract(schema: TSchema, body: unknown): void {
  const errors = Value.Errors(schema, body).map((e) => `${e.instancePath || '/'} ${e.message}`);
  expect(errors).toEqual([]);
}

/** Asserts the directory's error envelope `{success:false, message}` with the given status. */
export function expectDirectoryError(
  response: { statusCode: number; json: () => unknown },
  status: number,
  message?: RegExp | string,
): void {
  const body = response.json() as Record<string, unknown>;
  expect({
    status: response.statusCode,
    keys: Object.keys(body).sort(),
    success: body.success,
  }).toEqual({
    status,
    keys: ['message', 'success'],
    success: false,
  });
  expect(typeof body.message).toBe('string');
  if (message instanceof RegExp) expect(body.message).toMatch(message);
  else if (message !== undefined) expect(body.message).toBe(message);
}
