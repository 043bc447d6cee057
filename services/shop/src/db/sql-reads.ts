import type pg from 'pg';
import { Prisma } from '../generated/prisma/client.js';
import { preparedStatementName } from './prepared-statements.js';

/**
 * How the hot catalogue reads (the product list, detail and reviews page) and the webhook
 * worker's turn (one statement that records and claims, committing on its own) reach PostgreSQL:
 * one statement a call, outside any transaction, written in its repository with Prisma's `sql`
 * tag, sent by `pg` on the pool that Prisma's adapter uses too (one pool, one set of counts),
 * named as Prisma would name it (db/prepared-statements.ts). Prisma's `$queryRaw` sends the same
 * text and parameters but costs about as much CPU again as the rest of the request (the query
 * compiler, its result conversion and promise chain, per call); Prisma stays the tool for the
 * schema, migrations and the other writes.
 */
export interface SqlReads {
  /** The rows of one statement: columns as `pg` parses them (int8 as text). */
  rows<T>(query: Prisma.Sql): Promise<T[]>;
}

/** `SqlReads` on a `pg` pool. */
export function sqlReads(pool: pg.Pool): SqlReads {
  return {
    async rows<T>(query: Prisma.Sql): Promise<T[]> {
      const text = query.text;
      const result = await pool.query({
        // The name Prisma's adapter gives the same text (it names what it sends: `$1` placeholders);
        // '' is a statement planned per call, which pg sends unnamed only when `name` is absent.
        name: preparedStatementName({ sql: text }) || undefined,
        text,
        values: query.values.map(parameter),
      });
      return result.rows as T[];
    },
  };
}

/** Decimals (price bounds) as their exact text, bound like Prisma binds them; others as pg sends them. */
const parameter = (value: unknown) => (value instanceof Prisma.Decimal ? value.toString() : value);
