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
