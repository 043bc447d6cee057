import { isSocketError } from '@dogshop/service-kit';
/** Driver errors of a MongoDB that cannot be reached, closed the connection or is not ready. */
const UNAVAILABLE_ERRORS = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNotConnectedError',
  'MongoPoolClearedError',
  'MongoTopologyClosedError',
  'MongoServerClosedError',
]);
/**
 * Server error codes of a node that is shutting down, stepping down or unreachable: HostUnreachable,
 * HostNotFound, NetworkTimeout, ShutdownInProgress, PrimarySteppedDown, SocketException,
 * NotWritablePrimary, InterruptedAtShutdown, InterruptedDueToReplStateChange, NotPrimaryNoSecondaryOk,
 * NotPrimaryOrSecondary.
 */
const UNAVAILABLE_CODES = new Set([6, 7, 89, 91, 189, 9001, 10107, 11600, 11602, 13435, 13436]);

function hasLabel(error: Error, label: string): boolean {
  const labelled = error as Error & { hasErrorLabel?: (label: string) => boolean };
  return typeof labelled.hasErrorLabel === 'function' && labelled.hasErrorLabel(label);
}

/**
 * The error beneath `error`: its cause, or, for the driver's write errors (insertMany and bulkWrite
 * throw a MongoBulkWriteError), the error it wraps, which the driver keeps as `errorResponse`.
 */
function underlying(error: Error): unknown {
  const wrapped = (error as { errorResponse?: unknown }).errorResponse;
  return error.cause ?? (wrapped instanceof Error ? wrapped : undefined);
}

/**
 * True when a failure means the database is unreachable right now rather than that the request or
 * the code is wrong: the API answers 503, and the driver reconnects by itself once it is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = underlying(e), depth += 1) {
    if (UNAVAILABLE_ERRORS.has(e.name)) return true;
    const code = (e as { code?: unknown }).code;
    if (e.name.startsWith('Mongo') && typeof code === 'number' && UNAVAILABLE_CODES.has(code)) {
      return true;
    }
    // The driver passes some socket errors on as Node raised them (EPIPE on a closed connection).
    if (isSocketError(e)) return true;
    // A transaction the outage broke (its server restarted, its connection closed): the driver
    // labels such errors transient, as retrying the whole transaction later is what fixes them.
    if (hasLabel(e, 'TransientTransactionError')) return true;
  }
  return false;
}
