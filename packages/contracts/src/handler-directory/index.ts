import type { ApiDescription } from '../common.js';
import { directoryErrors } from './errors.js';
import { directoryTagList } from './tags.js';

export * from './shared.js';
export * from './errors.js';
export * from './handlers.js';
export * from './accounts.js';
export * from './history.js';
export * from './import.js';
export * from './tags.js';

/** The directory's OpenAPI self-description: title, auth scheme, tags and error responses. */
export const directoryApi: ApiDescription = {
  title: 'Hundeführer-Verzeichnis API',
  version: '1.0.0',
  description:
    'Directory of hunting-dog handlers: a public list of available handlers (optionally nearest first) and an administrator area behind a JWT. Messages are German. Errors: `{success:false, message}`.',
  securitySchemes: {
    BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
  },
  tags: directoryTagList,
  errors: directoryErrors,
};
