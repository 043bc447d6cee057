// The API as a service's pages call it: openapi-fetch over the types that service generates from
// its committed OpenAPI document (passed in as `Paths`), and the outcome of one call as a page
// shows it (its data, or a message in the service's language). No text of its own: each service
// passes its own (`CallTexts`).
import createClient, { type Client } from 'openapi-fetch';

/** What a page says when a call fails, in the service's language. */
export interface CallTexts {
  /** A failure without a message of the API's (a gateway or proxy answering in its own format). */
  failed: (status: number) => string;
  /** The request did not reach the service at all (no network, or the connection broke). */
  offline: string;
}

export interface ApiClientOptions {
  /** The bearer token to send (memory only: see `createSession`); absent: no Authorization. */
  token?: (() => string | undefined) | undefined;
  /** A 401 on a request that carried a token: the session has ended (expired, disabled). */
  onUnauthorised?: (() => void) | undefined;
  /**
   * Operations whose 401 may mean a wrong password rather than an ended session (changing the
   * password): their 401 is the form's to show, not a reason to sign out.
   */
  passwordChecked?: readonly string[];
}

/**
 * A typed client of the page's own origin: every URL relative, so the CSP's `connect-src 'self'`
 * holds. `no-cache`: every read is revalidated (the API's ETag turns it into a 304 without a
 * body), so a page never shows a stale record from the browser's copy.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- openapi-fetch's own default
export function createApiClient<Paths extends {}>(options: ApiClientOptions = {}): Client<Paths> {
  const client = createClient<Paths>({ baseUrl: '', cache: 'no-cache' });
  const { token, onUnauthorised, passwordChecked = [] } = options;
  if (token) {
    client.use({
      onRequest({ request }) {
        const value = token();
        if (value) request.headers.set('authorization', `Bearer ${value}`);
        return request;
      },
      onResponse({ request, response, schemaPath }) {
        if (
          response.status === 401 &&
          request.headers.has('authorization') &&
          !passwordChecked.includes(schemaPath)
        ) {
          onUnauthorised?.();
        }
        return response;
      },
    });
  }
  return client;
}

/**
 * How a call ended: its data (and the answer, for its headers), or the text to show. `offline`:
 * the request did not reach the service; otherwise `error` is the API's answer body and
 * `status` its status.
 */
export type Outcome<T, E = unknown> =
  | { data: T; response: Response }
  | { message: string; offline: boolean; error?: E; status?: number };

/** One call of an openapi-fetch client, as it resolves. */
export type Call<T, E = unknown> = Promise<{ data?: T; error?: E; response: Response }>;

/** Awaits one call: its data, or the message to show (see `callHelpers`). */
export type OutcomeOf = <T, E>(call: Call<T, E>) => Promise<Outcome<NonNullable<T>, E>>;

/**
 * The API's own message of an error body: `message` (the directory's `{success:false, message}`)
 * or `error` (the shop's `{success:false, error, status_code}`), when it is a non-empty string.
 */
export function apiMessage(error: unknown): string | undefined {
  const body = (error ?? {}) as { message?: unknown; error?: unknown };
  const text = body.message || body.error;
  return typeof text === 'string' ? text : undefined;
}

/** `failureText` and `outcome` speaking the service's language. */
export function callHelpers(texts: CallTexts) {
  /** The text to show for a failed call: the API's own message as it comes, else ours. */
  const failureText = (error: unknown, status: number): string =>
    apiMessage(error) ?? texts.failed(status);

  /** Awaits one call of the client: the data when it came, else the message to show. */
  const outcome: OutcomeOf = async (call) => {
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
      return { message: texts.offline, offline: true };
    }
  };

  return { failureText, outcome };
}
