// The directory's API as the pages call it: web-kit's openapi-fetch client over the types
// openapi-typescript makes of the committed OpenAPI document (generated/, written by `pnpm
// api-types` before every typecheck, lint and build), and its failures in German. A path,
// parameter or field the document no longer has is a type error in the page that uses it.
import { callHelpers, createApiClient, type ApiClientOptions } from '@dogshop/web-kit';
import type { components, paths } from './generated/handler-directory';

export type { Outcome } from '@dogshop/web-kit';

export type Schemas = components['schemas'];
export type PublicHandler = Schemas['PublicHandler'];
export type Handler = Schemas['Handler'];
export type Me = Schemas['Me'];
export type Account = Schemas['Account'];

/**
 * A client of the page's own origin (relative URLs: the CSP's `connect-src 'self'` holds), every
 * read revalidated (`no-cache`). Pages that sign in pass the token kept in memory by
 * lib/session.tsx (web/README.md).
 */
export const apiClient = (options: ApiClientOptions = {}) => createApiClient<paths>(options);

export type Api = ReturnType<typeof apiClient>;

/** When the request did not reach the directory at all (no network, or the connection broke). */
export const OFFLINE_TEXT =
  'Keine Verbindung zum Verzeichnis. Bitte Netzempfang prüfen und erneut versuchen.';

/**
 * `failureText`: the API's own message (German) as it comes, else one of ours naming the status
 * (a gateway or proxy answering in its own format). `outcome`: one call awaited, its data or
 * that text (`OFFLINE_TEXT` when the request failed on the way).
 */
export const { failureText, outcome } = callHelpers({
  failed: (status) =>
    `Das Verzeichnis hat die Anfrage nicht beantwortet (Status ${status}). Bitte später erneut versuchen.`,
  offline: OFFLINE_TEXT,
});
