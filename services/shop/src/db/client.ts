import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';

export type Db = PrismaClient;

/** The client inside `db.$transaction(async (tx) => …)`: what repository functions take. */
export type Tx = Prisma.TransactionClient;

/** A Prisma client over a bounded `pg` pool. */
export function createDb(databaseUrl: string, poolMax: number): Db {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: poolMax,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  return new PrismaClient({ adapter });
}
