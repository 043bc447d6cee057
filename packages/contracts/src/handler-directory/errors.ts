// The handler directory's documented error responses: every error is the `DirectoryError`
// envelope `{success:false, message}` with a German message.
import { Type, type Static } from 'typebox';
import {
  DirectoryErrorSchema as DirectoryErrorBodySchema,
  errorResponseSet,
  type ErrorResponseSpec,
} from '../common.js';

export type { ErrorResponseSpec } from '../common.js';

/** Error body of the handler directory, named for the OpenAPI components (common.ts has no `$id`). */
export const DirectoryErrorSchema = Type.Object(DirectoryErrorBodySchema.properties, {
  $id: 'DirectoryError',
  title: 'DirectoryError',
  additionalProperties: false,
});
export type DirectoryError = Static<typeof DirectoryErrorSchema>;

/** What each error status means in the directory, with its typical German message. */
const DIRECTORY_ERROR_STATUSES = {
  400: {
    description:
      'Invalid request: the message names the field and the rule broken (also an unknown field or query parameter, U+0000 in a text, or a malformed URL)',
    example: 'Ungültige Anfrage: body.name darf nicht kürzer als 1 Zeichen sein',
  },
  401: {
    description: 'Not authenticated (no, invalid or expired token; account gone or disabled)',
    example: 'Nicht angemeldet: Token ungültig oder abgelaufen',
  },
  403: {
    description: 'Not authorized (the role may not do this)',
    example: 'Keine Berechtigung: diese Aktion ist nur für Administratoren',
  },
  404: { description: 'Not found', example: 'Hundeführer nicht gefunden' },
  409: {
    description: 'Conflict with the current state (a taken username, the last enabled admin)',
    example: 'Ein Konto mit diesem Benutzernamen existiert bereits',
  },
  413: { description: 'Body larger than 100 kB', example: 'Anfrage zu groß (höchstens 100 kB)' },
  415: {
    description: 'Unsupported content type: bodies are application/json only',
    example: 'Nicht unterstützter Content-Type (erwartet: application/json)',
  },
  429: {
    description: 'Too many requests: retry after the number of seconds in `Retry-After`',
    example: 'Zu viele Anfragen, bitte später erneut versuchen',
  },
  503: {
    description:
      'Service unavailable: the database cannot be reached, or the service is overloaded; retry later (after `Retry-After` seconds when given)',
    example: 'Dienst vorübergehend nicht verfügbar',
  },
};

/**
 * Error responses of a directory operation: a status, or `[status, typical message, when]`, e.g.
 * `...directoryErrors(401, handlerNotFound, 429)`.
 */
export const directoryErrors = errorResponseSet({
  schema: DirectoryErrorSchema,
  statuses: DIRECTORY_ERROR_STATUSES,
  example: (_status, message) => ({ success: false as const, message }),
  fallbackMessage: 'Fehler',
});

/** No handler with the path's id (also for an id that is not an ObjectId). */
export const handlerNotFound: ErrorResponseSpec = [
  404,
  'Hundeführer nicht gefunden',
  'No handler with this id (also for an id that is not an ObjectId)',
];
