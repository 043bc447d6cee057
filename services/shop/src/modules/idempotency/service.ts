// Idempotency-Key: a request's first answer is stored with the work it describes and replayed for
// the same key and body. The orders service is its user (POST /orders).
import { createHash } from 'node:crypto';
import type { ShopError } from '@dogshop/contracts/common';
import { HttpError, conflict } from '@dogshop/service-kit';
import type { Db, Tx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/prisma-errors.js';
import { completeClaim, deleteClaim, findKey, insertClaim } from './repository.js';

/** A key's first response is replayed for this long; after it the key is free again. */
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * A claim still in flight after this long belongs to a request that died (crash, lost
 * connection) and may be taken over; live requests finish within their transaction timeout.
 */
export const ABANDONED_CLAIM_MS = 5 * 60 * 1000;

const CLAIM_ATTEMPTS = 3;

interface StoredResponse {
  statusCode: number;
  body: unknown;
}

export interface IdempotentResult<T> {
  body: T;
  /** True when this is the stored response of an earlier request with the same key. */
  replayed: boolean;
}

type Claim = { claimed: true; createdAt: Date } | { claimed: false; response: StoredResponse };

/** The header that marks a replayed response, successful or not. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * Runs `execute` at most once per key and request body; what it returns is the response body,
 * stored with `statusCode`. The key is claimed by inserting its row; the response is stored in
 * the same transaction as the work, so the work and its record commit together or not at all.
 * Refusals the request itself caused (HttpError 4xx) are stored too and replayed by throwing them
 * again; on any other failure the claim is released so that a retry can run.
 */
export async function withIdempotency<T>(
  db: Db,
  key: string,
  request: unknown,
  execute: (tx: Tx) => Promise<T>,
  options: { statusCode: number; transaction: { maxWait: number; timeout: number } },
): Promise<IdempotentResult<T>> {
  const hash = requestHash(request);
  const claim = await claimKey(db, key, hash);
  if (!claim.claimed) return { body: replay<T>(claim.response), replayed: true };
  try {
    return await db.$transaction(async (tx) => {
      const body = await execute(tx);
      const stored = await completeClaim(tx, key, claim.createdAt, {
        statusCode: options.statusCode,
        body,
      });
      if (!stored) {
        throw conflict(
          'the claim of this Idempotency-Key expired before the request finished; retry',
        );
      }
      return { body, replayed: false };
    }, options.transaction);
  } catch (error) {
    const settled =
      error instanceof HttpError && error.statusCode >= 400 && error.statusCode < 500
        ? completeClaim(db, key, claim.createdAt, {
            statusCode: error.statusCode,
            body: errorBody(error),
          })
        : deleteClaim(db, key, claim.createdAt);
    // The request's own error is the one to report; a claim left behind expires on its own.
    await settled.catch(() => undefined);
    throw error;
  }
}

/** SHA-256 of the body as canonical JSON (keys sorted), so key order does not matter. */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const fields = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value);
}

async function claimKey(db: Db, key: string, hash: string): Promise<Claim> {
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    try {
      return { claimed: true, createdAt: await insertClaim(db, key, hash) };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const existing = await findKey(db, key);
    if (!existing) continue; // released in the meantime
    if (isStale(existing)) {
      // Only the row just read: a concurrent takeover's fresh claim must survive.
      await deleteClaim(db, key, existing.createdAt);
      continue;
    }
    if (existing.requestHash !== hash) {
      throw new HttpError(422, 'Idempotency-Key was already used with a different request body');
    }
    if (existing.state === 'in_flight' || existing.statusCode === null) break;
    return {
      claimed: false,
      response: { statusCode: existing.statusCode, body: existing.responseBody },
    };
  }
  throw conflict('a request with this Idempotency-Key is still in progress');
}

function isStale(row: { state: 'in_flight' | 'completed'; createdAt: Date }): boolean {
  const age = Date.now() - row.createdAt.getTime();
  return age > (row.state === 'in_flight' ? ABANDONED_CLAIM_MS : REPLAY_WINDOW_MS);
}

/** A stored refusal is thrown again, so the error handler renders it exactly as the first time. */
function replay<T>(response: StoredResponse): T {
  if (response.statusCode < 400) return response.body as T;
  const { error } = response.body as ShopError;
  throw new HttpError(response.statusCode, error, { [REPLAYED_HEADER]: 'true' });
}

/** The envelope the error handler renders for this error. */
const errorBody = (error: HttpError): ShopError => ({
  success: false,
  error: error.message,
  status_code: error.statusCode,
});
