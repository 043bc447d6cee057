// The shop's documented error responses: every error is the `ShopError` envelope.
import { ShopErrorSchema, errorResponseSet, type ErrorResponseSpec } from '../common.js';

export type { ErrorResponseSpec } from '../common.js';

/** What each error status means in the shop, with a typical message (OpenAPI documentation). */
const SHOP_ERROR_STATUSES = {
  400: {
    description:
      'Invalid request: the message names the field and the rule broken (also an unknown field or query parameter, U+0000 in a text, or a malformed URL)',
    example: 'body.items.0.quantity must be >= 1',
  },
  401: {
    description:
      'Not authorized: missing, unknown or revoked API key; on bearer operations a missing, invalid or expired token',
    example: 'Invalid or revoked API key',
  },
  403: {
    description: "Forbidden: the bearer token's customer is not the customer in the path",
    example: 'path id 8 is not the customer of the bearer token',
  },
  404: { description: 'Not found', example: 'Product 999 not found' },
  409: { description: 'Conflict with the current state', example: 'Conflict' },
  413: { description: 'Body larger than 100 kB', example: 'Request body is too large' },
  415: {
    description: 'Unsupported content type: bodies are application/json only',
    example: 'Unsupported Media Type',
  },
  422: {
    description: 'Unprocessable',
    example: 'Idempotency-Key was already used with a different request body',
  },
  429: {
    description: 'Too many requests: retry after the number of seconds in `Retry-After`',
    example: 'Too many requests, retry in 1 minute',
  },
  503: {
    description:
      'Service unavailable: the database cannot be reached, or the service is overloaded; retry later (after `Retry-After` seconds when given)',
    example: 'Service temporarily unavailable',
  },
};

/**
 * Error responses of a shop operation: a status, or `[status, typical message, when]`, e.g.
 * `...shopErrors(401, [404, 'Product 999 not found', 'No active product with this id'], 429)`.
 */
export const shopErrors = errorResponseSet({
  schema: ShopErrorSchema,
  statuses: SHOP_ERROR_STATUSES,
  example: (status, message) => ({ success: false as const, error: message, status_code: status }),
});

/**
 * Errors of the operations on `/customers/{id}/…` with a bearer token: a bad id, no valid token,
 * another customer's path, the operation's own `specs`, too many requests.
 */
export const customerPathErrors = (...specs: ErrorResponseSpec[]) =>
  shopErrors(
    [400, 'params.id must be >= 1'],
    [401, 'Invalid or expired token', 'Missing, invalid or expired bearer token'],
    403,
    ...specs,
    429,
  );

/** The customer of the path no longer exists (the token outlived the account's deletion). */
export const customerNotFound: ErrorResponseSpec = [
  404,
  'Customer 7 not found',
  'No such customer',
];
