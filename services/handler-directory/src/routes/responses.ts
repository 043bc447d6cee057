import { DirectoryErrorSchema } from '@dogshop/contracts/common';
import { MESSAGES } from '../messages.js';

/** What each error status means in the directory, with its typical German message (documentation). */
const ERRORS: Record<number, { description: string; example: string }> = {
  400: {
    description: 'Invalid request: the message names the field and the rule broken',
    example: `${MESSAGES.invalidRequest}body.name must NOT have fewer than 1 characters`,
  },
  401: {
    description: 'Not authenticated (no, invalid or expired token; account gone or disabled)',
    example: MESSAGES.tokenInvalid,
  },
  403: { description: 'Not authorized (the role may not do this)', example: MESSAGES.forbidden },
  404: { description: 'Not found', example: MESSAGES.handlerNotFound },
  413: { description: 'Body larger than 100 kB', example: MESSAGES.bodyTooLarge },
  415: {
    description: 'Unsupported content type: bodies are application/json only',
    example: MESSAGES.unsupportedMediaType,
  },
  429: {
    description: 'Too many requests: retry after the number of seconds in `Retry-After`',
    example: MESSAGES.tooManyRequests,
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

/** Error responses of an operation, all in the directory's error envelope. */
export function errorResponses(...specs: ErrorResponseSpec[]) {
  return Object.fromEntries(
    specs.map((spec) => {
      const [code, example, description] = typeof spec === 'number' ? [spec] : spec;
      const known = ERRORS[code];
      return [
        code,
        {
          ...DirectoryErrorSchema,
          description: description ?? known?.description ?? 'Error',
          examples: [{ success: false, message: example ?? known?.example ?? 'Fehler' }],
          ...(code === 429 ? { headers: RETRY_AFTER } : {}),
        },
      ];
    }),
  );
}

export const bearerSecurity = [{ BearerAuth: [] }];
