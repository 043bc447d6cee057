// The directory's API as the pages call it: openapi-fetch over the types openapi-typescript makes
// of the committed OpenAPI document (generated/, written by generate-api-types.mjs before every
// typecheck, lint and build). A path, parameter or field the document no longer has is a type
// error in the page that uses it.
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/handler-directory';

export type Schemas = components['schemas'];
export type PublicHandler = Schemas['PublicHandler'];
export type Handler = Schemas['Handler'];
export type Me = Schemas['Me'];
export type Account = Schemas['Account'];

/**
 * The pages call the origin they came from (the directory itself, or the gateway in front of
 * it), so every URL is relative and the CSP's `connect-src 'self'` holds. `no-cache`: every read
 * is revalidated (the API's ETag turns it into a 304 without a body when nothing changed), so a
 * page never shows a handler whose availability has ended from the browser's copy.
 *
 * Pages that sign in (the handler's page, the admin app) keep the bearer token in memory only: a
 * variable of the page's script, passed here as `token`, never in localStorage, sessionStorage
 * or a cookie. Reloading the page or logging out forgets it (web/README.md).
 */
/** The operation whose 401 may mean a wrong password rather than an ended session. */
const PASSWORD_CHECKED = '/api/auth/password';

export function apiClient(
  token?: () => string | undefined,
  { onUnauthorised }: { onUnauthorised?: () => void } = {},
) {
  const client = createClient<paths>({ baseUrl: '', cache: 'no-cache' });
  if (token) {
    client.use({
      onRequest({ request }) {
        const value = token();
        if (value) request.headers.set('authorization', `Bearer ${value}`);
        return request;
      },
      onResponse({ request, response, schemaPath }) {
        // A token that no longer works (expired, or its account disabled). Not the 401 of a
        // wrong current password when changing it: the form says that, and asks /api/auth/me
        // whether the session itself has ended (whose 401 then lands here).
        if (
          response.status === 401 &&
          request.headers.has('authorization') &&
          schemaPath !== PASSWORD_CHECKED
        ) {
          onUnauthorised?.();
        }
        return response;
      },
    });
  }
  return client;
}

export type Api = ReturnType<typeof apiClient>;

/**
 * The text to show for a failed call: the API's own message (German) as it comes, else one of
 * ours naming the status (a gateway or proxy answering in its own format).
 */
export function failureText(error: unknown, status: number): string {
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const { message } = error;
    if (typeof message === 'string' && message !== '') return message;
  }
  return `Das Verzeichnis hat die Anfrage nicht beantwortet (Status ${status}). Bitte später erneut versuchen.`;
}

/** When the request did not reach the directory at all (no network, or the connection broke). */
export const OFFLINE_TEXT =
  'Keine Verbindung zum Verzeichnis. Bitte Netzempfang prüfen und erneut versuchen.';

/**
 * How a call ended: its data (and the answer, for its headers), or the text to show. `offline`:
 * the request did not reach the directory; otherwise `error` is the API's answer body and
 * `status` its status.
 */
export type Outcome<T, E = unknown> =
  | { data: T; response: Response }
  | { message: string; offline: boolean; error?: E; status?: number };

/**
 * Awaits one call of the client: the data when it came, else the API's German message
 * (`failureText`), or `OFFLINE_TEXT` when the request failed on the way.
 */
export async function outcome<T, E>(
  call: Promise<{ data?: T; error?: E; response: Response }>,
): Promise<Outcome<NonNullable<T>, E>> {
  try {
    const { data, error, response } = await call;
    return data
      ? { data, response }
      : {
          message: failureText(error, response.status),
          offline: false,
          error,
          status: response.status,
        };
  } catch {
    return { message: OFFLINE_TEXT, offline: true };
  }
}
