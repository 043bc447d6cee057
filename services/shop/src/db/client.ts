import type { PoolStats } from '@dogshop/service-kit';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';
import { preparedStatementName } from './prepared-statements.js';

export type Db = PrismaClient;

/** The client inside `db.$transaction(async (tx) => …)`: what repository functions take. */
export type Tx = Prisma.TransactionClient;

/** A Prisma client over a bounded `pg` pool. */
export function createDb(databaseUrl: string, poolMax: number): Db {
  return openDb(databaseUrl, poolMax).db;
}

/**
 * A Prisma client and its `pg` pool, whose counts feed the metrics and load shedding. The pool is
 * made here and handed to the adapter (which ends it on `$disconnect`), since the adapter keeps
 * the one it would make itself out of reach.
 */
export function openDb(databaseUrl: string, poolMax: number): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolMax,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  const adapter = new PrismaPg(pool, {
    disposeExternalPool: true,
    statementNameGenerator: preparedStatementName,
  });
  return { db: new PrismaClient({ adapter }), pool };
}

/** The pool's connections now: in use, idle, and queries waiting for one. */
export const poolStatsOf = (pool: pg.Pool): PoolStats => ({
  max: pool.options.max,
  inUse: pool.totalCount - pool.idleCount,
  idle: pool.idleCount,
  waiting: pool.waitingCount,
});
