/** Node's codes for a connection refused, reset, closed under a write, timed out or unresolved. */
const SOCKET_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
]);

/**
 * Whether `error` is one of Node's socket errors. Database drivers pass some on as Node raised
 * them (the MongoDB driver writing to a connection the server just closed gets EPIPE, not a
 * MongoNetworkError; pg gets ECONNRESET), so each service's `isDatabaseUnavailable` asks this.
 */
export function isSocketError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && SOCKET_ERROR_CODES.has(code);
}
