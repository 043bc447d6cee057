import { isSocketError } from '@dogshop/service-kit';
import { Prisma } from '../generated/prisma/client.js';

/** Prisma codes for a database that cannot be reached or gave up on us (not for bad queries). */
const UNAVAILABLE_CODES = new Set([
  'P1001', // can't reach the database server
  'P1002', // the server was reached but timed out
  'P1008', // operation timed out
  'P1017', // the server closed the connection
  'P2024', // timed out fetching a connection from the pool
  'P2028', // transaction API error: no connection in time, or the transaction was cut off
  'P2037', // too many connections
]);
/** What the pg driver adapter reports when the connection is the problem. */
const UNAVAILABLE_ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);
/**
 * PostgreSQL SQLSTATEs of an unreachable or stopping server: class 08 (connection exception),
 * 57P01–57P03 (admin or crash shutdown, cannot connect now), 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-3]|53300)$/;
/** Errors the pg driver throws without a code when a connection breaks or never comes. */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * True when a failure means the database is unreachable right now (stopped, restarting, cut the
 * connection, pool exhausted) rather than that the request or the code is wrong: the API answers
 * 503, and the service recovers by itself once the database is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientInitializationError) return true;
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (UNAVAILABLE_CODES.has(error.code)) return true;
    const cause = (
      error.meta?.driverAdapterError as { cause?: Record<string, unknown> } | undefined
    )?.cause;
    const sqlState = cause?.originalCode ?? cause?.code;
    return (
      UNAVAILABLE_ADAPTER_KINDS.has(String(cause?.kind)) ||
      ((typeof sqlState === 'string' || typeof sqlState === 'number') &&
        UNAVAILABLE_SQLSTATE.test(String(sqlState)))
    );
  }
  if (!(error instanceof Error)) return false;
  if (isSocketError(error)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE_SQLSTATE.test(code)) return true;
  return code === undefined && UNAVAILABLE_MESSAGE.test(error.message);
}
