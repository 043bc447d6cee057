// service-kit's behaviour in the directory (raw HTTP refusals, X-Request-Id, bearer tokens, login
// timing, the rate limit, the envelope of the framework's own refusals), in German: the suite
// both services share (@dogshop/api-fuzz/service-suite), run against the directory with its
// setup below.
import { expect } from '@jest/globals';
import { operationsOf, readDocument } from '@dogshop/api-fuzz';
import { describeServiceKitBehaviour } from '@dogshop/api-fuzz/service-suite';
import { MESSAGES } from '../src/messages.js';
import { ADMIN, TEST_JWT_SECRET, createTestApp } from './support/app.js';
import { bearer, claims } from './support/tokens.js';

describeServiceKitBehaviour({
  name: 'handler directory',
  operations: operationsOf(
    readDocument(new URL('../../../openapi/handler-directory.json', import.meta.url)),
  ),
  jwtSecret: TEST_JWT_SECRET,
  async start(overrides = {}) {
    // Failed logins are not throttled here: the timing test fails the admin's login 28 times.
    const t = await createTestApp({ loginMaxFailures: 1_000, ...overrides });
    const admin = bearer(t.admin.token);
    return {
      app: t.app,
      close: t.close,
      read: { method: 'GET', url: '/api/users', headers: admin },
      write: { method: 'POST', url: '/api/users', headers: admin },
      stored: () => t.app.db.handlers.countDocuments({}),
      claims: (extra = {}) => claims(t.admin.id, { username: t.admin.username, ...extra }),
      withToken: (token) => ({ url: '/api/users', headers: bearer(token) }),
      login: {
        known: ADMIN.username,
        unknown: (i) => `niemand.${i}`,
        request: (username, password) => ({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username, password },
        }),
      },
    };
  },
  expectErrorBody(body, status, message) {
    const envelope = body as Record<string, unknown>;
    expect(Object.keys(envelope).sort()).toEqual(['message', 'success']);
    expect(envelope.success).toBe(false);
    expect(typeof envelope.message).toBe('string');
    if (message instanceof RegExp) expect(envelope.message).toMatch(message);
    else if (message !== undefined) expect(envelope.message).toBe(message);
  },
  clientErrors: MESSAGES.clientErrors,
  tokenInvalid: MESSAGES.tokenInvalid,
  tooManyRequests: MESSAGES.tooManyRequests,
  messages: {
    notFound: 'Ressource nicht gefunden',
    malformedJson: /^Ungültige Anfrage: der Body konnte nicht gelesen werden/,
    unsupportedMediaType: 'Nicht unterstützter Content-Type (erwartet: application/json)',
    bodyTooLarge: 'Anfrage zu groß (höchstens 100 kB)',
  },
});
