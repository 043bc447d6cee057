import type { Db, Tx } from '../../db/client.js';
import type { Prisma } from '../../generated/prisma/client.js';

/** Claims a key by inserting its row (the primary key makes concurrent twins collide). */
export async function insertClaim(db: Db, key: string, requestHash: string): Promise<Date> {
  // The app's clock, not the database's, so that the age checks compare like with like.
  const row = await db.idempotencyKey.create({
    data: { key, requestHash, createdAt: new Date() },
    select: { createdAt: true },
  });
  return row.createdAt;
}

export const findKey = (db: Db, key: string) => db.idempotencyKey.findUnique({ where: { key } });

/** Deletes the claim made at `createdAt` only: a concurrent takeover's fresh claim survives. */
export async function deleteClaim(db: Db, key: string, createdAt: Date): Promise<void> {
  await db.idempotencyKey.deleteMany({ where: { key, createdAt } });
}

/** Records the response on our own claim only; false when the claim is gone (taken over). */
export async function completeClaim(
  client: Db | Tx,
  key: string,
  createdAt: Date,
  response: { statusCode: number; body: unknown },
): Promise<boolean> {
  const { count } = await client.idempotencyKey.updateMany({
    where: { key, createdAt, state: 'in_flight' },
    data: {
      state: 'completed',
      statusCode: response.statusCode,
      responseBody: response.body as Prisma.InputJsonValue,
    },
  });
  return count === 1;
}
