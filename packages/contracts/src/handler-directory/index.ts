import type { ApiDescription } from '../common.js';
import { DirectoryErrorSchema } from './errors.js';
import { AccountSummarySchema, LoginResponseSchema } from './accounts.js';
import {
  DeleteHandlerResponseSchema,
  ExportJsonResponseSchema,
  GpsSchema,
  HandlerListResponseSchema,
  HandlerResponseSchema,
  HandlerSchema,
  PublicHandlerListResponseSchema,
  PublicHandlerSchema,
} from './handlers.js';

export * from './shared.js';
export * from './errors.js';
export * from './handlers.js';
export * from './accounts.js';

/**
 * The directory's named schemas (each with an `$id`), for the OpenAPI components: every one
 * becomes `components.schemas.<$id>` (with those nested in it), and responses refer to it.
 * Request bodies are written inline, the schemas nested in them (Gps) by reference.
 */
export const directorySchemas = [
  DirectoryErrorSchema,
  GpsSchema,
  HandlerSchema,
  PublicHandlerSchema,
  HandlerResponseSchema,
  HandlerListResponseSchema,
  PublicHandlerListResponseSchema,
  DeleteHandlerResponseSchema,
  ExportJsonResponseSchema,
  AccountSummarySchema,
  LoginResponseSchema,
] as const;

/** The directory's OpenAPI self-description: title, auth scheme, tags and named schemas. */
export const directoryApi: ApiDescription = {
  title: 'Hundeführer-Verzeichnis API',
  version: '1.0.0',
  description:
    'Directory of hunting-dog handlers: a public list of available handlers (optionally nearest first) and an administrator area behind a JWT. Messages are German. Errors: `{success:false, message}`.',
  securitySchemes: {
    BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
  },
  tags: [
    { name: 'Public', description: 'Available handlers, no login' },
    { name: 'Auth', description: 'Administrator login' },
    { name: 'Handlers', description: 'Manage handlers (viewer: read only)' },
    { name: 'Export', description: 'All handlers as JSON or CSV' },
    { name: 'Operations', description: 'Health and readiness' },
  ],
  schemas: directorySchemas,
};
