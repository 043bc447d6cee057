// service-kit's behaviour in the shop (raw HTTP refusals, X-Request-Id, bearer tokens, login
// timing, the rate limit, the envelope of the framework's own refusals): the suite both services
// share (@dogshop/api-fuzz/service-suite), run against the shop with its setup below.
import { expect } from '@jest/globals';
import { operationsOf, readDocument } from '@dogshop/api-fuzz';
import { describeServiceKitBehaviour } from '@dogshop/api-fuzz/service-suite';
import { JWT_AUDIENCE, JWT_ISSUER } from '../src/plugins/auth.js';
import { TEST_API_KEY, TEST_JWT_SECRET, createTestApp } from './support/app.js';
import { bearer, registerCustomer } from './support/customers.js';

const key = { 'x-api-key': TEST_API_KEY };

describeServiceKitBehaviour({
  name: 'shop',
  operations: operationsOf(readDocument(new URL('../../../openapi/shop.json', import.meta.url))),
  jwtSecret: TEST_JWT_SECRET,
  async start(overrides = {}) {
    const t = await createTestApp(overrides);
    const customer = await registerCustomer(t);
    return {
      app: t.app,
      close: t.close,
      read: { method: 'GET', url: '/categories', headers: key },
      write: { method: 'POST', url: '/newsletter/subscribe', headers: key },
      stored: () => t.app.db.newsletterSubscriber.count(),
      claims: (extra = {}) => {
        const now = Math.floor(Date.now() / 1000);
        const iss = JWT_ISSUER;
        const aud = JWT_AUDIENCE;
        return {
          sub: String(customer.id),
          email: customer.email,
          iss,
          aud,
          iat: now,
          exp: now + 3600,
          ...extra,
        };
      },
      withToken: (token) => ({ url: `/customers/${customer.id}/profile`, headers: bearer(token) }),
      login: {
        known: customer.email,
        unknown: (i) => `nobody-${i}@example.com`,
        request: (email, password) => ({
          method: 'POST',
          url: '/customers/login',
          headers: key,
          payload: { email, password },
        }),
      },
    };
  },
  expectErrorBody(body, status, message) {
    const envelope = body as Record<string, unknown>;
    expect(Object.keys(envelope).sort()).toEqual(['error', 'status_code', 'success']);
    expect(envelope).toMatchObject({ success: false, status_code: status });
    expect(typeof envelope.error).toBe('string');
    if (message !== undefined) expect(envelope.error).toMatch(message);
  },
  clientErrors: {
    400: /^Bad request: the request could not be parsed$/,
    408: /^Request timeout/,
    431: /^Request header fields/,
  },
  tokenInvalid: /^Invalid or expired token$/,
  tooManyRequests: /^Too many requests, retry in /,
  messages: {},
});
