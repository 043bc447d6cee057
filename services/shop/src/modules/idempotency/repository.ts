import type { Db, Tx } from '../../db/client.js';
import { Prisma } from '../../generated/prisma/client.js';

/** A request's key as the queries need it: see `keyedRequest` (service.ts). */
export interface KeyedRequest {
  key: string;
  requestHash: string;
  /** The request's time (the app's clock, as every `created_at` of the table). */
  now: Date;
  /** Answers stored before this are expired: they count as absent and are taken over. */
  windowStart: Date;
}

/** A key's stored answer while it is live (completed, within the replay window). */
export interface StoredAnswer {
  requestHash: string;
  statusCode: number;
  body: unknown;
}

const at = (date: Date) => Prisma.sql`${date.toISOString()}::timestamptz`;

/**
 * The key's live answer, if any: a completed row stored within the window. Every other row counts
 * as absent: an expired answer, and an `in_flight` row, which this version never writes (see
 * `answerSql`).
 */
export const liveAnswerSql = (request: KeyedRequest): Prisma.Sql => Prisma.sql`
  SELECT k.request_hash, k.status_code, k.response_body
    FROM idempotency_keys k
   WHERE k.key = ${request.key} AND k.state = 'completed' AND k.status_code IS NOT NULL
     AND k.created_at >= ${at(request.windowStart)}`;

/**
 * The INSERT that stores `response` as the key's answer, completed at once, once per row of `from`
 * (a CTE of the same statement, which `response.body`, a jsonb expression, may read; none: once),
 * returning the key when it stored it and nothing when the key already has a live answer.
 *
 * The primary key is the arbiter: ON CONFLICT sees every committed row, also one committed after
 * the statement's snapshot was taken, and waits for a row another transaction inserted but has
 * not committed yet (then conflicts if it commits, inserts if it rolls back). A conflicting row
 * is taken over (updated in place) only when it is not a live answer, judged on its latest
 * committed version (DO UPDATE locks that version first, so two takeovers cannot both win):
 * - expired (older than the window): the key is free again;
 * - `in_flight`: a claim of an earlier version of the shop, which claimed the key in a statement
 *   of its own. This version never writes one, so such a row is absent at once, however young:
 *   waiting out its five minutes (ABANDONED_CLAIM_MS then) made retries answer 409 after a crash.
 *   It is safe even while an older replica still runs that request (a rolling deploy): the older
 *   version places its order only in a statement that locks its claim row FOR UPDATE and
 *   requires it unchanged and still `in_flight`, so after a takeover it writes nothing (409,
 *   "claim expired"), and once it completed the claim, the row is a live answer, not taken over.
 */
export const answerSql = (
  request: KeyedRequest,
  response: { statusCode: number; body: Prisma.Sql },
  from?: Prisma.Sql,
): Prisma.Sql => Prisma.sql`
  INSERT INTO idempotency_keys AS k (key, request_hash, state, status_code, response_body,
                                     created_at)
  SELECT ${request.key}, ${request.requestHash}, 'completed'::idempotency_state,
         ${response.statusCode}::int, ${response.body}, ${at(request.now)}
  ${from ? Prisma.sql`FROM ${from}` : Prisma.empty}
  ON CONFLICT (key) DO UPDATE
     SET request_hash = EXCLUDED.request_hash, state = EXCLUDED.state,
         status_code = EXCLUDED.status_code, response_body = EXCLUDED.response_body,
         created_at = EXCLUDED.created_at
   WHERE k.state <> 'completed' OR k.status_code IS NULL
      OR k.created_at < ${at(request.windowStart)}
  RETURNING k.key`;

/**
 * Stores an answer computed outside the database (a refusal) as the key's answer, in a statement
 * of its own. False when the key already has a live answer (a twin stored one first).
 */
export async function storeAnswer(
  db: Db | Tx,
  request: KeyedRequest,
  response: { statusCode: number; body: unknown },
): Promise<boolean> {
  const stored = await db.$queryRaw<Array<{ key: string }>>(
    answerSql(request, {
      statusCode: response.statusCode,
      body: Prisma.sql`${JSON.stringify(response.body)}::jsonb`,
    }),
  );
  return stored.length > 0;
}

/** The key's live answer now (committed), or null. */
export async function findLiveAnswer(
  db: Db | Tx,
  request: KeyedRequest,
): Promise<StoredAnswer | null> {
  const row = await db.idempotencyKey.findFirst({
    where: {
      key: request.key,
      state: 'completed',
      statusCode: { not: null },
      createdAt: { gte: request.windowStart },
    },
    select: { requestHash: true, statusCode: true, responseBody: true },
  });
  return row && row.statusCode !== null
    ? { requestHash: row.requestHash, statusCode: row.statusCode, body: row.responseBody }
    : null;
}
