import { Prisma } from '../generated/prisma/client.js';

/** P2002: a unique constraint refused the write (e.g. the loser of two concurrent inserts). */
export const isUniqueViolation = (error: unknown): boolean =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

/** P2025: the row an update or delete needed no longer exists. */
export const isRecordNotFound = (error: unknown): boolean =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2025';

/** P2003: a foreign key refused the write (the row it points at is gone). */
export const isForeignKeyViolation = (error: unknown): boolean =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2003';

/**
 * 40P01 (deadlock detected) or 40001 (serialization failure): PostgreSQL rolled the transaction
 * back to break a cycle of lock waits (or a conflict), and running it again is safe.
 */
export function isRetryableConflict(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  const meta = error.meta as
    | {
        code?: unknown;
        driverAdapterError?: { cause?: { originalCode?: unknown; code?: unknown } };
      }
    | undefined;
  const cause = meta?.driverAdapterError?.cause;
  const code = cause?.originalCode ?? cause?.code ?? meta?.code;
  return code === '40P01' || code === '40001';
}

/**
 * Runs `transaction` (a whole transaction: nothing of a rolled-back run remains) up to `runs`
 * times while PostgreSQL rolls it back with 40P01 or 40001; any other error, or the last
 * conflict, is thrown.
 */
export async function retryingConflicts<T>(transaction: () => Promise<T>, runs = 3): Promise<T> {
  for (let run = 1; ; run++) {
    try {
      return await transaction();
    } catch (error) {
      if (run >= runs || !isRetryableConflict(error)) throw error;
    }
  }
}
