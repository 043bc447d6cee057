import { ShopErrorSchema } from '@dogshop/contracts/common';

/** What each error status means in the shop, with a typical message (OpenAPI documentation). */
const ERRORS: Record<number, { description: string; example: string }> = {
  400: {
    description: 'Invalid request: the message names the field and the rule broken',
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
};

/**
 * An error status, or a status with the message an operation typically answers with it (and
 * optionally a description of when), for the documentation.
 */
export type ErrorResponseSpec = number | [status: number, example: string, description?: string];

const RETRY_AFTER = {
  'retry-after': { type: 'integer', description: 'Seconds until a new request is accepted' },
};

/** Error responses of an operation, all in the shop's error envelope. */
export function errorResponses(...specs: ErrorResponseSpec[]) {
  return Object.fromEntries(
    specs.map((spec) => {
      const [code, example, description] = typeof spec === 'number' ? [spec] : spec;
      const known = ERRORS[code];
      return [
        code,
        {
          ...ShopErrorSchema,
          description: description ?? known?.description ?? 'Error',
          examples: [
            { success: false, error: example ?? known?.example ?? 'Error', status_code: code },
          ],
          ...(code === 429 ? { headers: RETRY_AFTER } : {}),
        },
      ];
    }),
  );
}

export const bearerSecurity = [{ BearerAuth: [] }];
