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
