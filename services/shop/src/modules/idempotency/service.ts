// Idempotency-Key: a request's first answer is stored with the work it describes and replayed for
// the same key and body. The orders service is its user (POST /orders).
//
// There is no claim that commits on its own: the answer is stored by the statement that does the
// work (orders/repository.ts, placeOrderIfAccepted), or, for a refusal that wrote nothing, by one
// INSERT of the finished answer (`storeRefusal`). A key row therefore always holds an answer; a
// request that dies leaves nothing behind (its statement rolls back), and a retry runs at once.
import { createHash } from 'node:crypto';
import type { ShopError } from '@dogshop/contracts/common';
import { HttpError } from '@dogshop/service-kit';
import type { Db } from '../../db/client.js';
import { findLiveAnswer, storeAnswer, type KeyedRequest, type StoredAnswer } from './repository.js';

export type { KeyedRequest, StoredAnswer } from './repository.js';

/** A key's first response is replayed for this long; after it the key is free again. */
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The header that marks a replayed response, successful or not. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** How often a request looks again for an answer that vanished as it read it (see `answered`). */
const ATTEMPTS = 3;

/** A request with an `Idempotency-Key`: its key, the hash of its body, and its replay window. */
export function keyedRequest(key: string, body: unknown, now = new Date()): KeyedRequest {
  return {
    key,
    requestHash: requestHash(body),
    now,
    windowStart: new Date(now.getTime() - REPLAY_WINDOW_MS),
  };
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

/**
 * The stored answer to this key, as the request's own: its body when it was a success; a stored
 * refusal is thrown again (so the error handler renders it exactly as the first time, with
 * `Idempotent-Replayed: true`); 422 when the key was used with a different body.
 */
export function replay<T>(request: KeyedRequest, stored: StoredAnswer): T {
  if (stored.requestHash !== request.requestHash) {
    throw new HttpError(422, 'Idempotency-Key was already used with a different request body');
  }
  if (stored.statusCode < 400) return stored.body as T;
  const { error } = stored.body as ShopError;
  throw new HttpError(stored.statusCode, error, { [REPLAYED_HEADER]: 'true' });
}

/**
 * The key's answer, stored by a twin whose statement committed while ours ran (ours saw it
 * conflict and wrote nothing). Null only if it vanished meanwhile (expired and taken over, or
 * deleted), which is the caller's cue to run the request again.
 */
export const answered = (db: Db, request: KeyedRequest): Promise<StoredAnswer | null> =>
  findLiveAnswer(db, request);

/**
 * Stores a refusal the request caused (HttpError 4xx; nothing was written) as the key's answer,
 * completed at once, and returns null; or, when the key got a live answer first, returns that
 * one to be replayed instead of the refusal.
 *
 * The stored answer wins even when it is a success: a twin with the same key and body placed the
 * order while this request was judged, and this refusal is usually the twin's own doing (it took
 * the last of the stock). The client sent one order, and it was placed once; answering "refused"
 * now would make it believe the order failed, and a later retry would replay the success anyway.
 */
export async function storeRefusal(
  db: Db,
  request: KeyedRequest,
  error: HttpError,
): Promise<StoredAnswer | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (await storeAnswer(db, request, { statusCode: error.statusCode, body: errorBody(error) })) {
      return null;
    }
    const stored = await findLiveAnswer(db, request);
    if (stored) return stored;
    // The conflicting answer expired or was deleted between the two statements: store again.
  }
  throw new Error(`the answer of Idempotency-Key ${request.key} keeps changing`);
}

/** The envelope the error handler renders for this error. */
const errorBody = (error: HttpError): ShopError => ({
  success: false,
  error: error.message,
  status_code: error.statusCode,
});
