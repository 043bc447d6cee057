import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from './support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every operation of the shop's API contract (the spec this service implements), with the scheme it gives. */
const SPEC_OPERATIONS: Array<[string, string, 'ApiKeyAuth' | 'BearerAuth']> = [
  ['get', '/products', 'ApiKeyAuth'],
  ['get', '/products/{id}', 'ApiKeyAuth'],
  ['get', '/categories', 'ApiKeyAuth'],
  ['post', '/orders', 'ApiKeyAuth'],
  ['get', '/orders/{id}', 'ApiKeyAuth'],
  ['put', '/orders/{id}', 'ApiKeyAuth'],
  ['post', '/customers/register', 'ApiKeyAuth'],
  ['post', '/customers/login', 'ApiKeyAuth'],
  ['get', '/customers/{id}/profile', 'BearerAuth'],
  ['put', '/customers/{id}/profile', 'BearerAuth'],
  ['get', '/products/{id}/reviews', 'ApiKeyAuth'],
  ['post', '/products/{id}/reviews', 'BearerAuth'],
  ['post', '/newsletter/subscribe', 'ApiKeyAuth'],
  ['post', '/newsletter/unsubscribe', 'ApiKeyAuth'],
  ['get', '/stats', 'ApiKeyAuth'],
];

describe('OpenAPI document', () => {
  it.each(SPEC_OPERATIONS)(
    'documents %s %s with its security scheme and error responses',
    async (method, path, scheme) => {
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const operation = doc.paths[path]?.[method];
      expect(operation).toBeDefined();
      expect(operation.operationId).toEqual(expect.any(String));
      expect(operation.tags).toHaveLength(1);
      const security = operation.security ?? doc.security;
      expect(security).toEqual([{ [scheme]: [] }]);
      const statuses = Object.keys(operation.responses);
      expect(statuses.some((s) => s.startsWith('2'))).toBe(true);
      expect(statuses).toEqual(expect.arrayContaining(['401']));
    },
  );
});
