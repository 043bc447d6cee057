import { createHash, randomBytes } from 'node:crypto';
import type { Invalidation } from '@dogshop/service-kit';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client.js';
import {
  findAllApiKeys,
  findRevocation,
  findRevocationByHash,
  insertApiKey,
  markRevoked,
  upsertApiKey,
  type ApiKeyInfo,
} from './repository.js';

export type { ApiKeyInfo };

const KEY_PREFIX = 'shop_';

/**
 * The invalidation topic of the API keys: a revocation publishes it, and every replica's
 * apiKeyChecker forgets the keys it remembered.
 */
export const API_KEYS_TOPIC = 'api-keys';

/** Keys carry 256 random bits, so SHA-256 is a safe, constant-cost way to store them. */
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** Creates a key; the plain key is returned once and never stored. */
export async function createApiKey(
  db: Db,
  name: string,
): Promise<{ key: string; info: ApiKeyInfo }> {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  const info = await insertApiKey(db, { name, keyHash: hashApiKey(key), prefix: key.slice(0, 12) });
  return { key, info };
}

/** Registers a key given from outside (SHOP_API_KEY); a no-op when it is already known. */
export const registerApiKey = (db: Db, name: string, key: string): Promise<ApiKeyInfo> =>
  upsertApiKey(db, { name, keyHash: hashApiKey(key), prefix: key.slice(0, 12) });

export const listApiKeys = (db: Db): Promise<ApiKeyInfo[]> => findAllApiKeys(db);

/**
 * Returns false when no such key exists; revoking twice keeps the first revocation time. After
 * the revocation, `changed` tells the running replicas (invalidation.publish(API_KEYS_TOPIC)),
 * also when the key was revoked already, in case that earlier announcement did not get through.
 */
export async function revokeApiKey(
  db: Db,
  id: number,
  changed: () => Promise<unknown> = async () => {},
): Promise<boolean> {
  const found = await findRevocation(db, id);
  if (!found) return false;
  if (!found.revokedAt) await markRevoked(db, id);
  await changed();
  return true;
}

/** The lookup is by hash, so timing reveals nothing about how much of a key was right. */
export const isActiveApiKey = (db: Db, key: string): Promise<boolean> =>
  isActiveKeyHash(db, hashApiKey(key));

async function isActiveKeyHash(db: Db, keyHash: string): Promise<boolean> {
  const found = await findRevocationByHash(db, keyHash);
  return found !== null && found.revokedAt === null;
}

/**
 * `isActiveApiKey` with the active keys remembered for `ttlMs`: every API request checks its key,
 * and the lookup would otherwise be one more database round trip per request. Unknown and
 * revoked keys are never remembered, so a new key works at once and guessing cannot fill the
 * cache (creating a key therefore needs no announcement).
 *
 * A revocation (the CLI, another process) publishes API_KEYS_TOPIC on `invalidation`, and every
 * replica forgets what it remembered at once. What no publish reaches is bounded by `ttlMs`: a
 * CLI run without REDIS_URL, or one that could not reach Redis. While this process is not sure to
 * hear the signal (`invalidation.listening` false: Redis down), nothing is remembered and every
 * request looks its key up. 0 turns the cache off.
 */
export function apiKeyChecker(
  db: Db,
  ttlMs: number,
  invalidation: Invalidation,
): { isActive: (key: string) => Promise<boolean>; close: () => void } {
  if (ttlMs <= 0) return { isActive: (key) => isActiveApiKey(db, key), close: () => {} };
  const active = new LRUCache<string, true>({ max: 1_000, ttl: ttlMs });
  /** Counts revocations heard; a lookup that overlapped one is not remembered. */
  let generation = 0;
  const close = invalidation.subscribe(API_KEYS_TOPIC, () => {
    generation += 1;
    active.clear();
  });
  const isActive = async (key: string) => {
    const keyHash = hashApiKey(key);
    if (!invalidation.listening) {
      active.clear();
      return isActiveKeyHash(db, keyHash);
    }
    if (active.has(keyHash)) return true;
    const started = generation;
    const ok = await isActiveKeyHash(db, keyHash);
    if (ok && generation === started && invalidation.listening) active.set(keyHash, true);
    return ok;
  };
  return { isActive, close };
}
