import { createHash, randomBytes } from 'node:crypto';
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

/** Returns false when no such key exists; revoking twice keeps the first revocation time. */
export async function revokeApiKey(db: Db, id: number): Promise<boolean> {
  const found = await findRevocation(db, id);
  if (!found) return false;
  if (!found.revokedAt) await markRevoked(db, id);
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
 * and the lookup would otherwise be one more database round trip per request. Keys are revoked
 * by the CLI, in another process, so a revoked key keeps working for at most `ttlMs` (that is
 * the price; 0 turns the cache off). Unknown and revoked keys are never remembered, so a new key
 * works at once and guessing cannot fill the cache.
 */
export function apiKeyChecker(db: Db, ttlMs: number): (key: string) => Promise<boolean> {
  if (ttlMs <= 0) return (key) => isActiveApiKey(db, key);
  const active = new LRUCache<string, true>({ max: 1_000, ttl: ttlMs });
  return async (key) => {
    const keyHash = hashApiKey(key);
    if (active.has(keyHash)) return true;
    const ok = await isActiveKeyHash(db, keyHash);
    if (ok) active.set(keyHash, true);
    return ok;
  };
}
